/**
 * The disclosure rule has one source, DISCLOSURE_RULE (schema/submission.ts), which the submissions
 * Worker serves with every aggregate; README quotes it, and the quote must be the same words.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DISCLOSURE_RULE } from '../../schema/submission.js'

/** The block quote that follows the README's `<!-- disclosure-rule -->` marker, as one line. */
function quotedRule(readme: string): string {
  const after = readme.split('<!-- disclosure-rule -->\n')[1]
  if (after === undefined) throw new Error('README.md has no <!-- disclosure-rule --> marker')
  const lines: string[] = []
  for (const line of after.split('\n')) {
    const quoted = /^\s*> ?(.*)$/.exec(line)
    if (!quoted) break
    lines.push(quoted[1] as string)
  }
  return lines.join(' ')
}

describe('disclosure rule', () => {
  it('behavior: README quotes the served disclosure rule word for word', () => {
    expect(quotedRule(readFileSync('README.md', 'utf8'))).toBe(DISCLOSURE_RULE)
  })
})
