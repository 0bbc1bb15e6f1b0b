/**
 * A build error names its root cause, not the checks it knocks over: a rule file that cannot be
 * read, or that fails its schema, is reported alone, without the gates and scenarios that cite it,
 * the inventory count it changes or the thresholds only it used; a problem two checks find is
 * listed once.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse, stringify } from 'yaml'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

/** A rule that gates, scenarios and thresholds depend on: breaking it used to report all of them. */
const RULE = 'rules/add-capacity-in-steps-and-watch-host-limits.yaml'

const problems = (report: string) => report.split('\n').filter((l) => l.startsWith('  '))
const headings = (report: string) => report.split('\n').filter((l) => /^\S.*\.yaml$/.test(l))

describe('a build error', () => {
  it('error: a rule that is not valid YAML is the only problem reported', async () => {
    const dir = await copyOfContent()
    await writeFile(join(dir, RULE), `${await readFile(join(dir, RULE), 'utf8')}\nwhy: [unclosed\n`)
    const report = await buildFailure(dir)
    expect(headings(report)).toEqual([RULE])
    expect(problems(report)).toHaveLength(1)
    expect(problems(report)[0]).toMatch(/not valid YAML/)
  })

  it('error: a rule that fails its schema is reported alone, not the references to it', async () => {
    const dir = await copyOfContent()
    const rule = parse(await readFile(join(dir, RULE), 'utf8')) as Record<string, unknown>
    delete rule.title
    await writeFile(join(dir, RULE), stringify(rule))
    const report = await buildFailure(dir)
    expect(headings(report)).toEqual([RULE])
    expect(report).toMatch(/title: /)
    expect(report).not.toMatch(/no rule|inventory|not used by any rule/)
  })

  it('error: a threshold a rule uses but nobody defines is named once per field', async () => {
    const dir = await copyOfContent()
    const path = join(dir, 'thresholds.yaml')
    const thresholds = parse(await readFile(path, 'utf8')) as { name: string }[]
    await writeFile(path, stringify(thresholds.filter((t) => t.name !== 'host-limit-use-max')))
    const report = await buildFailure(dir)
    expect(headings(report)).toEqual([RULE])
    const lines = problems(report)
    expect(lines.length).toBeGreaterThan(0)
    expect(new Set(lines).size).toBe(lines.length)
    for (const line of lines) expect(line).toMatch(/unknown threshold "host-limit-use-max"/)
  })
})
