/**
 * Texts with one source in schema/ that the documents quote word for word: the disclosure rule
 * (served with every aggregate; gateway/submissions/README.md) and how a buyer gets a payment token
 * (in llms.txt and openapi.json; README). Each quote is the block quote after its marker comment,
 * and must be the same words as its source. And README stays a ten-minute read that links every
 * document the rest moved to.
 */
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PAYMENT_TOKEN_HOW_TO } from '../../schema/payment-token.js'
import { DISCLOSURE_RULE } from '../../schema/submission.js'
import { afterMarker, DOCS } from '../support/doc-blocks.js'

/** The block quote that follows `<!-- marker -->` in the one document that has it, as one line. */
function quoted(marker: string): string {
  const lines: string[] = []
  for (const line of afterMarker(marker).after.replace(/^\n/, '').split('\n')) {
    const quote = /^\s*> ?(.*)$/.exec(line)
    if (!quote) break
    lines.push(quote[1] as string)
  }
  return lines.join(' ')
}

describe('quotes in the documents', () => {
  it('behavior: the submissions document quotes the served disclosure rule word for word', () => {
    expect(afterMarker('disclosure-rule').doc).toBe('gateway/submissions/README.md')
    expect(quoted('disclosure-rule')).toBe(DISCLOSURE_RULE)
  })

  it('behavior: README quotes how a buyer gets a payment token word for word', () => {
    expect(afterMarker('payment-token').doc).toBe('README.md')
    expect(quoted('payment-token')).toBe(PAYMENT_TOKEN_HOW_TO)
  })
})

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingSlugs(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map(([, title]) =>
    (title as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  )
}

describe('README', () => {
  const readme = readFileSync('README.md', 'utf8')

  it('behavior: is at most 250 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250)
  })

  it('behavior: links every other document, and every relative link in the documents names a file and heading that exist', () => {
    for (const doc of DOCS.filter((d) => d !== 'README.md')) expect(readme, doc).toContain(`](${doc}`)
    for (const doc of DOCS) {
      const dir = doc.includes('/') ? doc.slice(0, doc.lastIndexOf('/') + 1) : ''
      for (const [, target = '', anchor] of readFileSync(doc, 'utf8').matchAll(
        /\]\(([^)#:\s]*)(?:#([^)\s]+))?\)/g,
      )) {
        const file = target === '' ? doc : `${dir}${target}`
        expect(existsSync(file), `${doc} links ${target}`).toBe(true)
        if (anchor && file.endsWith('.md'))
          expect(headingSlugs(file), `${doc} links ${target}#${anchor}`).toContain(anchor)
      }
    }
  })
})
