/**
 * Starts the whole service on one machine: the build, the processor stand-in, local D1
 * migrations, and both Workers in one `wrangler dev` (gateway on the port, submissions behind
 * its service binding). Used by `npm start`, the tests and the benchmark.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { build } from '../build/index.js'
import { STANDIN_SECRET } from '../schema/config.js'
import { type ProcessorStandin, startProcessorStandin } from './processor-standin.js'

export const GATEWAY_CONFIG = 'gateway/wrangler.jsonc'
export const SUBMISSIONS_CONFIG = 'gateway/submissions/wrangler.jsonc'
export const SUBMISSIONS_DB = 'rules-pricing-submissions'

export interface ServiceOptions {
  port: number
  /** Where local D1 and Durable Object state lives (`.wrangler/state` for npm start). */
  stateDir: string
  /** Skip the build (the caller already built dist/). */
  skipBuild?: boolean
  /** Extra `--var NAME:value` overrides, e.g. a short processor timeout for fault tests. */
  vars?: Record<string, string>
  /** Print wrangler's output (npm start) instead of keeping it for errors only (tests). */
  verbose?: boolean
  /** Another gateway config (the benchmark's, with a pure static asset path). */
  gatewayConfig?: string
}

export interface RunningService {
  url: string
  processor: ProcessorStandin
  /** The process group of wrangler and its workerd processes (for CPU accounting). */
  processGroup(): number | undefined
  /** Stops wrangler only, leaving state and the stand-in: for restart tests. */
  stopWorkers(): Promise<void>
  startWorkers(): Promise<void>
  stop(): Promise<void>
}

const quietEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  NO_UPDATE_NOTIFIER: '1',
}

export function localUrls(port: number) {
  const base = `http://127.0.0.1:${port}`
  return {
    base_url: base,
    site_url: `${base}/pricing/`,
    register_url: 'https://register.invalid/warn-notices.csv',
  }
}

/** A per-state-dir HMAC secret, made once, so challenges survive a restart. */
async function hmacSecret(stateDir: string): Promise<string> {
  const file = join(stateDir, 'payment-hmac-secret')
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim()
  const secret = randomBytes(32).toString('base64url')
  await writeFile(file, secret, { mode: 0o600 })
  return secret
}

function run(args: string[], verbose: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['wrangler', ...args], { env: quietEnv, stdio: verbose ? 'inherit' : 'pipe' })
    let output = ''
    child.stdout?.on('data', (d) => (output += d))
    child.stderr?.on('data', (d) => (output += d))
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`wrangler ${args[0]} failed:\n${output}`)),
    )
  })
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${log()}`)
    try {
      const r = await fetch(`${url}/v1/catalogue`)
      if (r.status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`the service did not start within 90 s:\n${log()}`)
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { port, stateDir } = options
  const verbose = options.verbose ?? false
  const urls = localUrls(port)
  await mkdir(stateDir, { recursive: true })
  if (!options.skipBuild) await build({ contentDir: 'content', outDir: 'dist', urls })
  const processor = await startProcessorStandin()
  await run(
    [
      'd1',
      'migrations',
      'apply',
      SUBMISSIONS_DB,
      '--local',
      '-c',
      SUBMISSIONS_CONFIG,
      '--persist-to',
      stateDir,
    ],
    verbose,
  )
  const vars: Record<string, string> = {
    ENVIRONMENT: 'local',
    BASE_URL: urls.base_url,
    SITE_URL: urls.site_url,
    REGISTER_URL: urls.register_url,
    REALM: `127.0.0.1:${port}`,
    PROCESSOR_URL: processor.url,
    PROCESSOR_SECRET: STANDIN_SECRET,
    PAYMENT_HMAC_SECRET: await hmacSecret(stateDir),
    ...options.vars,
  }
  let child: ChildProcess | undefined
  // wrangler's output goes to a file in the state directory, to read after a crash.
  const logFile = join(stateDir, 'wrangler.log')
  const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-4000) : '')
  const startWorkers = async () => {
    child = spawn(
      'npx',
      [
        'wrangler',
        'dev',
        '-c',
        options.gatewayConfig ?? GATEWAY_CONFIG,
        '-c',
        SUBMISSIONS_CONFIG,
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--persist-to',
        stateDir,
        '--inspector-port',
        '0',
        '--log-level',
        verbose ? 'info' : 'warn',
        ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
      ],
      {
        env: quietEnv,
        stdio: ['ignore', verbose ? 'inherit' : 'pipe', verbose ? 'inherit' : 'pipe'],
        detached: true,
      },
    )
    const out = createWriteStream(logFile, { flags: 'a' })
    child.stdout?.pipe(out)
    child.stderr?.pipe(out)
    const running = child
    await waitUntilReady(urls.base_url, running, log)
  }
  const stopWorkers = async () => {
    const running = child
    if (!running || running.exitCode !== null) return
    const exited = new Promise((r) => running.once('exit', r))
    process.kill(-(running.pid as number), 'SIGTERM')
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
    if (running.exitCode === null) process.kill(-(running.pid as number), 'SIGKILL')
  }
  await startWorkers()
  return {
    url: urls.base_url,
    processor,
    processGroup: () => child?.pid,
    stopWorkers,
    startWorkers,
    stop: async () => {
      await stopWorkers()
      await processor.close()
    },
  }
}
