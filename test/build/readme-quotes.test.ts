/**
 * Texts with one source in schema/ that README quotes word for word: the disclosure rule (served with
 * every aggregate) and how a buyer gets a payment token (in llms.txt and openapi.json). Each quote is
 * the block quote after its marker comment, and must be the same words as its source.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PAYMENT_TOKEN_HOW_TO } from '../../schema/payment-token.js'
import { DISCLOSURE_RULE } from '../../schema/submission.js'

const readme = readFileSync('README.md', 'utf8')

/** The block quote that follows README's `<!-- marker -->`, as one line. */
function quoted(marker: string): string {
  const after = readme.split(`<!-- ${marker} -->\n`)[1]
  if (after === undefined) throw new Error(`README.md has no <!-- ${marker} --> marker`)
  const lines: string[] = []
  for (const line of after.split('\n')) {
    const quote = /^\s*> ?(.*)$/.exec(line)
    if (!quote) break
    lines.push(quote[1] as string)
  }
  return lines.join(' ')
}

describe('README quotes', () => {
  it('behavior: README quotes the served disclosure rule word for word', () => {
    expect(quoted('disclosure-rule')).toBe(DISCLOSURE_RULE)
  })

  it('behavior: README quotes how a buyer gets a payment token word for word', () => {
    expect(quoted('payment-token')).toBe(PAYMENT_TOKEN_HOW_TO)
  })
})
