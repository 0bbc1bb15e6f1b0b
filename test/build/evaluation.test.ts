/**
 * Issue 43: llms.txt publishes the evaluation's figures, read from the last fresh set's own records
 * in content/reviews (RESULT.txt as ab-pairs.mjs prints it, ANSWERS.txt as the editor records the
 * answer grader's totals), never typed a second time.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { evaluationLine, lastEvaluation } from '../../build/stages/evaluation.js'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

const result = (ordinary: [number, number, string], traps: [number, number, string]) =>
  [ordinary, traps]
    .map(
      ([w, wo, worse]) =>
        `with: right ${w}, partly ${12 - w}, wrong 0 of 12\nwithout: right ${wo}, partly ${12 - wo}, wrong 0 of 12\nmade worse by the answer: ${worse}\nmade better by the answer: none\n`,
    )
    .join('')

async function content(sets: Record<string, { result: string; answers?: string }>) {
  const dir = await mkdtemp(join(tmpdir(), 'rpi-eval-'))
  dirs.push(dir)
  for (const [path, files] of Object.entries(sets)) {
    await mkdir(join(dir, 'reviews', path), { recursive: true })
    await writeFile(join(dir, 'reviews', path, 'RESULT.txt'), files.result)
    if (files.answers) await writeFile(join(dir, 'reviews', path, 'ANSWERS.txt'), files.answers)
  }
  return dir
}

describe('the evaluation llms.txt publishes', () => {
  it('behavior: the last set holding both records is read, its figures in one line', async () => {
    const dir = await content({
      'ab-1/set-A': {
        result: result([9, 8, 'oA-01'], [10, 9, 'none']),
        answers: 'traps named: 3 of 12\nliteral right: 2 of 12\n',
      },
      'ab-1/set-B': {
        result: result([11, 10, 'none'], [12, 7, 'tB-02, tB-05']),
        answers: 'traps named: 9 of 12\nliteral right: 4 of 12\n',
      },
      'ab-1/set-C': { result: result([1, 1, 'none'], [1, 1, 'none']) },
    })
    const figures = await lastEvaluation(dir)
    expect(figures?.set).toBe('ab-1/set-B')
    // After Z come AA, AB: a longer name is a later set.
    const later = await content({
      'ab-1/set-Z': {
        result: result([9, 8, 'none'], [10, 9, 'none']),
        answers: 'traps named: 3 of 12\nliteral right: 2 of 12\n',
      },
      'ab-1/set-AA': {
        result: result([12, 11, 'oAA-06'], [11, 8, 'none']),
        answers: 'traps named: 4 of 12\nliteral right: 7 of 12\n',
      },
    })
    const last = await lastEvaluation(later)
    expect(last?.set).toBe('ab-1/set-AA')
    expect(evaluationLine(last as NonNullable<typeof last>)).toContain('; 1 plan made worse.')
    const line = evaluationLine(figures as NonNullable<typeof figures>)
    expect(line).toContain('with the answer 11 of 12 ordinary changes planned right (10 alone)')
    expect(line).toContain('12 of 12 trap tickets (7 alone)')
    expect(line).toContain('2 plans made worse')
    expect(line).toContain('for 9 of 12')
    expect(line).toContain('on 4 of 12 ordinary changes')
  })

  it('error: records not in the form the tools write fail the build, naming the set; no reviews, no line', async () => {
    const bad = await content({
      'ab-1/set-A': { result: 'graded by hand', answers: 'traps named: 3 of 12\n' },
    })
    await expect(lastEvaluation(bad)).rejects.toThrow('set-A')
    expect(await lastEvaluation(join(bad, 'none'))).toBeUndefined()
  })
})
