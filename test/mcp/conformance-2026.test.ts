/**
 * The frozen 2026-07-28 requirement set of the official MCP conformance suite
 * (@modelcontextprotocol/conformance 0.2.0-alpha.12, installed as @modelcontextprotocol/conformance-2026
 * beside the 0.1.16 that tests the 2025 protocol) against the local /mcp. Every scenario the revision
 * requires runs; those that apply pass, checks the suite cannot test here included only when listed,
 * and each scenario or check that does not apply is listed with why in
 * conformance-2026-expected-failures.yaml.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type ConformanceRun,
  type ExpectedFailure,
  expectedFailures,
  runConformance,
} from '../support/conformance-run.js'
import { base } from '../support/service.js'

const CLI = 'node_modules/@modelcontextprotocol/conformance-2026/dist/index.js'
const EXPECTED_FAILURES = 'test/mcp/conformance-2026-expected-failures.yaml'
/** What this server offers, so what the suite must find passing (but for checks listed one by one). */
const APPLICABLE = [
  'server-stateless',
  'tools-list',
  'resources-list',
  'sep-2164-resource-not-found',
  'caching',
  'dns-rebinding-protection',
  'http-header-validation',
  'server-sse-multiple-streams',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
]

let run: ConformanceRun
let listed: ExpectedFailure[]

beforeAll(async () => {
  run = await runConformance(
    CLI,
    ['--url', `${base()}/mcp`, '--requirements', '2026-07-28'],
    EXPECTED_FAILURES,
  )
  listed = await expectedFailures(EXPECTED_FAILURES)
})

describe('MCP conformance suite, 2026-07-28 requirements', () => {
  it('behavior: the suite passes with every failure expected and no stale expectation', () => {
    expect(run.code, run.output.slice(-4000)).toBe(0)
  })

  for (const scenario of APPLICABLE)
    it(`behavior: ${scenario} passes every check it can test here`, () => {
      const checks = run.results.get(scenario)
      expect(checks?.length, `${scenario} did not run`).toBeGreaterThan(0)
      const excused = new Set(listed.filter((e) => e.scenario === scenario).map((e) => e.check))
      const passed = (checks ?? []).filter((c) => c.status === 'SUCCESS')
      expect(passed.length, `${scenario} passed nothing`).toBeGreaterThan(0)
      for (const check of checks ?? [])
        if (!excused.has(check.id))
          expect(check.status, `${check.id}: ${check.errorMessage}`).toMatch(/^(SUCCESS|INFO)$/)
    })

  it('behavior: every scenario that ran is either applicable or listed with a reason', () => {
    for (const entry of listed)
      expect(entry.reason, `${entry.scenario}:${entry.check ?? ''} needs a reason`).not.toBe('')
    const whole = listed.filter((e) => e.check === undefined).map((e) => e.scenario)
    expect(whole.filter((n) => APPLICABLE.includes(n))).toEqual([])
    const checked = listed.filter((e) => e.check !== undefined).map((e) => e.scenario)
    const accounted = new Set([...APPLICABLE, ...whole, ...checked])
    expect([...run.results.keys()].filter((s) => !accounted.has(s))).toEqual([])
    // And the frozen set ran whole: every scenario named here was run.
    expect([...accounted].filter((s) => !run.results.has(s))).toEqual([])
  })
})
