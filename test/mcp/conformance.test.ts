/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance) against the local /mcp:
 * every scenario of its active server suite runs; the ones that apply must pass, and each one that
 * does not is listed with why in conformance-expected-failures.yaml. Offline: the suite is a
 * devDependency and talks only to the local service. It needs Node 22 or later (it imports
 * fs.globSync): the node devDependency that npm test and npx put first on PATH.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { base } from '../support/service.js'

const CLI = 'node_modules/@modelcontextprotocol/conformance/dist/index.js'
const EXPECTED_FAILURES = 'test/mcp/conformance-expected-failures.yaml'
/** What this server offers, so what the suite must find passing. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']

interface Check {
  id: string
  status: string
  errorMessage?: string
}

let outDir: string
let run: { code: number; output: string }
/** Each scenario's checks, by scenario name. */
const results = new Map<string, Check[]>()

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'))
  const args = [CLI, 'server', '--url', `${base()}/mcp`, '--expected-failures', EXPECTED_FAILURES]
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [...args, '-o', outDir], {
      maxBuffer: 64 * 1024 * 1024,
    })
    run = { code: 0, output: `${stdout}${stderr}` }
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string }
    run = { code: e.code ?? -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` }
  }
  // One folder per scenario: server-<scenario>-<ISO timestamp>/checks.json.
  for (const dir of await readdir(outDir)) {
    const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '')
    results.set(scenario, JSON.parse(await readFile(join(outDir, dir, 'checks.json'), 'utf8')) as Check[])
  }
})
afterAll(() => rm(outDir, { recursive: true, force: true }))

describe('MCP conformance suite', () => {
  it('behavior: the suite passes with every failure expected and no stale expectation', () => {
    expect(run.code, run.output.slice(-4000)).toBe(0)
  })

  for (const scenario of APPLICABLE)
    it(`behavior: ${scenario} passes every check`, () => {
      const checks = results.get(scenario)
      expect(checks?.length, `${scenario} did not run`).toBeGreaterThan(0)
      for (const check of checks ?? [])
        expect(check.status, `${check.id}: ${check.errorMessage}`).toBe('SUCCESS')
    })

  it('behavior: every scenario that ran is either applicable or listed with a reason', async () => {
    const text = await readFile(EXPECTED_FAILURES, 'utf8')
    const listed = (parse(text) as { server: string[] }).server
    for (const name of listed) expect(text, `${name} needs a reason`).toMatch(new RegExp(`- ${name} # \\S`))
    expect(listed.filter((n) => APPLICABLE.includes(n))).toEqual([])
    expect([...results.keys()].sort()).toEqual([...APPLICABLE, ...listed].sort())
  })
})
