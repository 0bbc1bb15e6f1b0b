/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16, the 2025 protocol)
 * against the local /mcp: every scenario of its active server suite runs; the ones that apply must
 * pass, and each one that does not is listed with why in conformance-expected-failures.yaml. The
 * frozen 2026-07-28 requirement set runs beside it (conformance-2026.test.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type ConformanceRun, expectedFailures, runConformance } from '../support/conformance-run.js'
import { base } from '../support/service.js'

const CLI = 'node_modules/@modelcontextprotocol/conformance/dist/index.js'
const EXPECTED_FAILURES = 'test/mcp/conformance-expected-failures.yaml'
/** What this server offers, so what the suite must find passing. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']

let run: ConformanceRun

beforeAll(async () => {
  run = await runConformance(CLI, ['--url', `${base()}/mcp`], EXPECTED_FAILURES)
})

describe('MCP conformance suite', () => {
  it('behavior: the suite passes with every failure expected and no stale expectation', () => {
    expect(run.code, run.output.slice(-4000)).toBe(0)
  })

  for (const scenario of APPLICABLE)
    it(`behavior: ${scenario} passes every check`, () => {
      const checks = run.results.get(scenario)
      expect(checks?.length, `${scenario} did not run`).toBeGreaterThan(0)
      for (const check of checks ?? [])
        expect(check.status, `${check.id}: ${check.errorMessage}`).toBe('SUCCESS')
    })

  it('behavior: every scenario that ran is either applicable or listed with a reason', async () => {
    const listed = await expectedFailures(EXPECTED_FAILURES)
    for (const entry of listed) expect(entry.reason, `${entry.scenario} needs a reason`).not.toBe('')
    const names = listed.map((e) => e.scenario)
    expect(names.filter((n) => APPLICABLE.includes(n))).toEqual([])
    expect([...run.results.keys()].sort()).toEqual([...APPLICABLE, ...names].sort())
  })
})
