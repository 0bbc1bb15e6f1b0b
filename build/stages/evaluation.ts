/**
 * The evaluation llms.txt publishes: the figures of the last fresh A/B set in content/reviews/
 * (issue 43), read from the set's own records, never typed twice. RESULT.txt is what
 * scripts/editor/ab-pairs.mjs unblind printed (ordinary first, then the trap tickets); ANSWERS.txt is
 * the answer grader's two totals as the editor recorded them ("traps named: 7 of 12", "literal
 * right: 1 of 12"). The last set is the newest folder holding both, by name, as sets are named
 * after A to Z: set-AA after set-Z (a longer name is later).
 */
import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'

export interface EvaluationFigures {
  set: string
  ordinary: PlanFigures
  traps: PlanFigures
  trapsNamed: Count
  literalRight: Count
}
interface Count {
  n: number
  of: number
}
interface PlanFigures {
  with: Count
  without: Count
  worse: number
}

/** Names in the order sets are given them: A to Z, then AA, AB (by length, then by letters). */
const bySetName = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)

const count = (text: string, pattern: RegExp): Count[] =>
  [...text.matchAll(pattern)].map((m) => ({ n: Number(m[1]), of: Number(m[2]) }))

/** The figures of the last set, or undefined when no set holds both records. */
export async function lastEvaluation(contentDir: string): Promise<EvaluationFigures | undefined> {
  const reviews = join(contentDir, 'reviews')
  if (!existsSync(reviews)) return undefined
  const sets: string[] = []
  for (const run of (await readdir(reviews)).sort())
    for (const set of (await readdir(join(reviews, run)).catch(() => [])).sort(bySetName)) {
      const dir = join(reviews, run, set)
      if (existsSync(join(dir, 'RESULT.txt')) && existsSync(join(dir, 'ANSWERS.txt'))) sets.push(dir)
    }
  const dir = sets.at(-1)
  if (!dir) return undefined
  const result = await readFile(join(dir, 'RESULT.txt'), 'utf8')
  const answers = await readFile(join(dir, 'ANSWERS.txt'), 'utf8')
  const withAnswer = count(result, /^with: right (\d+), partly \d+, wrong \d+ of (\d+)$/gm)
  const without = count(result, /^without: right (\d+), partly \d+, wrong \d+ of (\d+)$/gm)
  const worse = [...result.matchAll(/^made worse by the answer: (.*)$/gm)].map((m) =>
    m[1] === 'none' ? 0 : (m[1] ?? '').split(',').length,
  )
  const [named] = count(answers, /^traps named: (\d+) of (\d+)$/gm)
  const [literal] = count(answers, /^literal right: (\d+) of (\d+)$/gm)
  const [ow, tw] = withAnswer
  const [oa, ta] = without
  if (!ow || !tw || !oa || !ta || worse.length !== 2 || !named || !literal)
    throw new Error(`${dir}: RESULT.txt or ANSWERS.txt is not in the form ab-pairs.mjs and the editor write`)
  return {
    set: dir.split(/[\\/]/).slice(-2).join('/'),
    ordinary: { with: ow, without: oa, worse: worse[0] ?? 0 },
    traps: { with: tw, without: ta, worse: worse[1] ?? 0 },
    trapsNamed: named,
    literalRight: literal,
  }
}

const of = (c: Count) => `${c.n} of ${c.of}`

/** The figures in one line of plain words. */
export function evaluationLine(e: EvaluationFigures): string {
  const worse = e.ordinary.worse + e.traps.worse
  return `last fresh set (${e.set} in the repository's content/reviews): with the answer ${of(e.ordinary.with)} ordinary changes planned right (${e.ordinary.without.n} alone) and ${of(e.traps.with)} trap tickets (${e.traps.without.n} alone); ${worse ? `${worse} plan${worse === 1 ? '' : 's'} made worse` : 'no plan made worse'}. The answer itself names the ticket's trap with a probe and the safe path for ${of(e.trapsNamed)}, and is right for an agent obeying it literally on ${of(e.literalRight)} ordinary changes.`
}
