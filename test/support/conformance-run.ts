/**
 * Runs the official MCP conformance suite's CLI (`server` mode) against the local /mcp and reads what
 * each scenario found. Offline: the suite is a devDependency and talks only to the local service. It
 * needs Node 22 or later (it imports fs.globSync): the node devDependency that npm test and npx put
 * first on PATH.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { parse } from 'yaml'

export interface Check {
  id: string
  status: string
  errorMessage?: string
}

export interface ConformanceRun {
  /** The CLI's exit code: 0 when every failure is expected and no expectation is stale. */
  code: number
  output: string
  /** Each scenario's checks, by scenario name. */
  results: Map<string, Check[]>
}

export async function runConformance(
  cli: string,
  args: string[],
  expectedFailures: string,
): Promise<ConformanceRun> {
  const outDir = await mkdtemp(join(tmpdir(), 'mcp-conformance-'))
  try {
    const argv = [cli, 'server', ...args, '--expected-failures', expectedFailures, '-o', outDir]
    let code = 0
    let output: string
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, argv, {
        maxBuffer: 64 * 1024 * 1024,
      })
      output = `${stdout}${stderr}`
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string }
      code = e.code ?? -1
      output = `${e.stdout ?? ''}${e.stderr ?? ''}`
    }
    const results = new Map<string, Check[]>()
    // One folder per scenario: server-<scenario>-<ISO timestamp>/checks.json.
    for (const dir of await readdir(outDir)) {
      const scenario = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '')
      results.set(scenario, JSON.parse(await readFile(join(outDir, dir, 'checks.json'), 'utf8')) as Check[])
    }
    return { code, output, results }
  } finally {
    await rm(outDir, { recursive: true, force: true })
  }
}

/** An expected-failures entry: a whole scenario, or one check of it (`scenario:check`), and its reason. */
export interface ExpectedFailure {
  scenario: string
  check?: string
  reason: string
}

/** The `server` entries of an expected-failures file, each with the reason its line gives after `#`. */
export async function expectedFailures(path: string): Promise<ExpectedFailure[]> {
  const text = await readFile(path, 'utf8')
  const listed = (parse(text) as { server: string[] }).server
  const reasons = new Map(
    [...text.matchAll(/^\s*- (\S+) # (.+)$/gm)].map((m) => [m[1] as string, (m[2] as string).trim()]),
  )
  return listed.map((entry) => {
    const [scenario, check] = entry.split(':') as [string, string | undefined]
    return { scenario, ...(check ? { check } : {}), reason: reasons.get(entry) ?? '' }
  })
}
