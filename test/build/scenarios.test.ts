/**
 * The situations the router is judged on (content/scenarios/): enough of them, every action among
 * them, every rule's incident replayed, and the two situations issue 29 names (a routine deploy and
 * an emergency revert) answered within the issue's counts. A miss fails the build itself.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { routeScenario, unreplayedRules } from '../../build/checks/situation-checks.js'
import { collect } from '../../build/stages/collect.js'
import type { BuildIssue } from '../../build/stages/issues.js'
import { type Content, validate } from '../../build/stages/validate.js'
import type { Scenario } from '../../schema/scenario.js'
import { buildFailure, copyOfContent } from '../support/content-copy.js'

/** Issue 29, "Done when": the situations as the issue writes them, and the most each answer may hold. */
const ROUTINE_DEPLOY = {
  action: 'deploy',
  facts: { emergency: false, targets: 3, stateful: false, one_way_changes: false },
  max: { gates: 6, rules: 6 },
}
const EMERGENCY_REVERT = {
  action: 'revert',
  facts: { emergency: true, one_way_changes: false },
  max: { gates: 3 },
}
const MIN_SCENARIOS = 30

let content: Content
let issues: BuildIssue[]

beforeAll(async () => {
  issues = []
  content = validate(await collect('content', issues), undefined, issues)
})

/** The scenarios that ask exactly the issue's question: its action and its facts, no more. */
const asking = (question: { action: string; facts: Record<string, unknown> }) =>
  content.scenarios.filter((s) => s.action === question.action && isDeepStrictEqual(s.facts, question.facts))

const answer = (scenario: Scenario) => {
  const routed = routeScenario(scenario, content.gates, content.rules, content.facts)
  if ('parameter' in routed) throw new Error(`${scenario.id}: ${routed.detail}`)
  return routed
}

describe('scenarios in content/', () => {
  it('behavior: the real content builds with every scenario answered as it demands', () => {
    expect(issues.filter((i) => i.file.startsWith('scenarios/'))).toEqual([])
    expect(issues).toEqual([])
  })

  it(`behavior: at least ${MIN_SCENARIOS} scenarios, and every action of actions.yaml is among them`, () => {
    expect(content.scenarios.length).toBeGreaterThanOrEqual(MIN_SCENARIOS)
    const actions = content.actions.map((a) => a.action)
    expect(actions.length).toBeGreaterThan(0)
    const used = new Set(content.scenarios.map((s) => s.action))
    expect(actions.filter((a) => !used.has(a))).toEqual([])
  })

  it('behavior: every rule has a replay of its incident, and each replay selects its rule or a gate enforcing it', () => {
    expect(content.rules.length).toBeGreaterThan(0)
    expect(unreplayedRules(content.scenarios, content.rules)).toEqual([])
    for (const scenario of content.scenarios.filter((s) => s.replays)) {
      const routed = answer(scenario)
      const enforcing = content.gates.filter((g) => g.rules.includes(scenario.replays as string))
      const selected =
        routed.rules.includes(scenario.replays as string) ||
        enforcing.some((g) => routed.gates.includes(g.id))
      expect(selected, scenario.id).toBe(true)
    }
  })

  it('behavior: the routine deploy of the issue exists and gets at most its counts of gates and rules', () => {
    const found = asking(ROUTINE_DEPLOY)
    expect(found.map((s) => s.id)).toHaveLength(1)
    const scenario = found[0] as Scenario
    expect(scenario.max?.gates).toBeLessThanOrEqual(ROUTINE_DEPLOY.max.gates)
    expect(scenario.max?.rules).toBeLessThanOrEqual(ROUTINE_DEPLOY.max.rules)
    const routed = answer(scenario)
    expect(routed.gates.length).toBeLessThanOrEqual(ROUTINE_DEPLOY.max.gates)
    expect(routed.rules.length).toBeLessThanOrEqual(ROUTINE_DEPLOY.max.rules)
    expect(routed.gates.length).toBeGreaterThan(0)
  })

  it('behavior: the emergency revert of the issue exists and gets at most its count of gates', () => {
    const found = asking(EMERGENCY_REVERT)
    expect(found.map((s) => s.id)).toHaveLength(1)
    const scenario = found[0] as Scenario
    expect(scenario.max?.gates).toBeLessThanOrEqual(EMERGENCY_REVERT.max.gates)
    expect(answer(scenario).gates.length).toBeLessThanOrEqual(EMERGENCY_REVERT.max.gates)
  })

  it('behavior: a scenario whose answer breaks its demands fails the build, naming the file and the miss', async () => {
    const dir = await copyOfContent()
    const scenario = asking(EMERGENCY_REVERT)[0] as Scenario
    const gates = answer(scenario).gates
    expect(gates.length).toBeGreaterThan(0)
    const strict: Scenario = { ...scenario, max: { ...scenario.max, gates: gates.length - 1 } }
    await writeFile(join(dir, 'scenarios', `${scenario.id}.yaml`), stringify(strict))
    const report = await buildFailure(dir)
    expect(report).toContain(`scenarios/${scenario.id}.yaml`)
    expect(report).toContain(`max.gates: ${gates.length} gates apply`)
  })
})
