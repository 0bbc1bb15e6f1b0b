/**
 * Starts the whole service on one machine: the build, the processor stand-in, local D1
 * migrations, and both Workers in one `wrangler dev` (gateway on the port, submissions behind
 * its service binding). Used by `npm start`, the tests and the benchmark.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { basename, dirname, join, resolve } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { build } from '../build/index.js'
import { LOCAL_URLS, type ServiceUrls, STANDIN_SECRET } from '../schema/config.js'
import { startLocalFront } from './local-front.js'
import { type ProcessorStandin, type StandinOptions, startProcessorStandin } from './processor-standin.js'

export const GATEWAY_CONFIG = 'gateway/wrangler.jsonc'
export const SUBMISSIONS_CONFIG = 'gateway/submissions/wrangler.jsonc'
export const SUBMISSIONS_DB = 'rules-pricing-submissions'

export interface ServiceOptions {
  port: number
  /** Where local D1 and Durable Object state lives (`.wrangler/state` for npm start). */
  stateDir: string
  /** Gateway var overrides (`--var NAME:value`), e.g. a short processor timeout for fault tests. */
  vars?: Record<string, string>
  /**
   * Submissions Worker var overrides, e.g. a higher flood limit for load tests. wrangler applies
   * `--var` only to the first Worker of a multi-config dev, so these go into a generated config.
   */
  submissionsVars?: Record<string, string>
  /** Print wrangler's output (npm start) instead of keeping it for errors only (tests). */
  verbose?: boolean
  /** Processor stand-in options, e.g. how long a stall token is held. */
  processor?: StandinOptions
  /** Another gateway config (the benchmark's, with a pure static asset path). */
  gatewayConfig?: string
}

export interface RunningService {
  url: string
  processor: ProcessorStandin
  /** The process group of wrangler and its workerd processes (for CPU accounting). */
  processGroup(): number | undefined
  /** How often wrangler dev died on its own and was restarted. */
  restarts(): number
  /** Stops wrangler only, leaving state and the stand-in: for restart tests. */
  stopWorkers(): Promise<void>
  startWorkers(): Promise<void>
  stop(): Promise<void>
}

/** The environment for every wrangler call: no telemetry, no network look-ups. */
export const quietEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  NO_UPDATE_NOTIFIER: '1',
}

export function localUrls(port: number): ServiceUrls {
  const base = `http://127.0.0.1:${port}`
  return { ...LOCAL_URLS, base_url: base, site_url: `${base}/pricing/` }
}

/** A per-state-dir secret, made once by `make`, so it survives a restart. */
async function localSecret(stateDir: string, name: string, make = randomSecret): Promise<string> {
  const file = join(stateDir, name)
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim()
  const secret = make()
  await writeFile(file, secret, { mode: 0o600 })
  return secret
}

const randomSecret = () => randomBytes(32).toString('base64url')

/** A receipt signing key: a private Ed25519 JWK with a kid derived from its public half. */
function newSigningKey(): string {
  const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })
  const kid = `local-${createHash('sha256')
    .update(jwk.x as string)
    .digest('base64url')
    .slice(0, 12)}`
  return JSON.stringify({ ...jwk, kid })
}

interface WranglerConfig {
  $schema?: string
  main?: string
  vars?: Record<string, string>
  assets?: { directory: string }
  d1_databases?: { migrations_dir?: string }[]
}

/**
 * A copy of a wrangler config in the service's state directory, its paths made absolute, changed
 * by `change`. Never beside the source: a file appearing in gateway/ changes a directory that
 * another running wrangler's bundler watches, and its rebuild has been seen to deadlock esbuild.
 */
async function generatedConfig(
  source: string,
  stateDir: string,
  change: (config: WranglerConfig) => void,
): Promise<string> {
  // JSONC: drop whole-line comments and trailing ones after a value, then it is JSON.
  const text = (await readFile(source, 'utf8'))
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .map((line) => line.replace(/,\s*\/\/.*$/, ','))
    .join('\n')
  const config = JSON.parse(text) as WranglerConfig
  const from = (path: string) => resolve(dirname(source), path)
  delete config.$schema
  if (config.main) config.main = from(config.main)
  if (config.assets) config.assets.directory = from(config.assets.directory)
  for (const db of config.d1_databases ?? [])
    if (db.migrations_dir) db.migrations_dir = from(db.migrations_dir)
  change(config)
  const file = join(resolve(stateDir), `${basename(dirname(resolve(source)))}.wrangler.json`)
  await writeFile(file, JSON.stringify(config, null, 2))
  return file
}

/** A `wrangler d1 …` command on the local submissions database in `stateDir`. */
export function localD1(stateDir: string, command: string[], verbose = false): Promise<void> {
  return run(
    ['d1', ...command, SUBMISSIONS_DB, '--local', '-c', SUBMISSIONS_CONFIG, '--persist-to', stateDir],
    verbose,
  )
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

/** A port the OS says is free now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const free = typeof address === 'object' && address ? address.port : 0
      probe.close(() => resolve(free))
    })
  })
}

/** Signals a process group (wrangler and its workerd children), ignoring one already gone. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal)
  } catch {
    // already gone
  }
}

/** Refuses to start on a busy port: two services on one port would split the traffic silently. */
async function assertPortFree(port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer()
    probe.once('error', () =>
      reject(new Error(`port ${port} is already in use: stop the other service first`)),
    )
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()))
  })
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { port, stateDir } = options
  await assertPortFree(port)
  const verbose = options.verbose ?? false
  const urls = localUrls(port)
  await mkdir(stateDir, { recursive: true })
  const publicDir = join(stateDir, 'public')
  await build({ contentDir: 'content', outDir: 'dist', publicDir, urls })
  const processor = await startProcessorStandin(options.processor)
  await localD1(stateDir, ['migrations', 'apply'], verbose)
  // The submissions Worker always gets a generated config: its salt is a per-state-dir secret.
  const submissionsVars = {
    SUBMITTER_SALT: await localSecret(stateDir, 'submitter-salt'),
    // Aggregates a few seconds old, not a day: a local user sees their row counted soon.
    AGGREGATE_SNAPSHOT_SECONDS: '5',
    ...options.submissionsVars,
  }
  const submissionsConfig = await generatedConfig(SUBMISSIONS_CONFIG, stateDir, (c) => {
    c.vars = { ...c.vars, ...submissionsVars }
  })
  // The discovery files name this service's address, so it serves its own copy of them.
  const gatewayConfig = await generatedConfig(options.gatewayConfig ?? GATEWAY_CONFIG, stateDir, (c) => {
    c.assets = { ...c.assets, directory: resolve(publicDir) }
  })
  const vars: Record<string, string> = {
    ENVIRONMENT: 'local',
    BASE_URL: urls.base_url,
    SITE_URL: urls.site_url,
    REGISTER_URL: urls.register_url,
    REALM: `127.0.0.1:${port}`,
    PROCESSOR_URL: processor.url,
    PROCESSOR_SECRET: STANDIN_SECRET,
    PAYMENT_HMAC_SECRET: await localSecret(stateDir, 'payment-hmac-secret'),
    RECEIPT_SIGNING_KEY: await localSecret(stateDir, 'receipt-signing-key.json', newSigningKey),
    ...options.vars,
  }
  // wrangler listens on a private port behind the local front door (scripts/local-front.ts).
  const front = await startLocalFront(port)
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
        gatewayConfig,
        '-c',
        submissionsConfig,
        '--ip',
        '127.0.0.1',
        '--port',
        // Whatever port the OS gives: read back from wrangler's "Ready on" line, no race for a free one.
        '0',
        '--persist-to',
        stateDir,
        '--inspector-port',
        '0',
        // info: the "Ready on" line names the port (the log file keeps it; the console only if verbose).
        '--log-level',
        'info',
        ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
      ],
      {
        env: quietEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    )
    // Two sources share one log: neither may end it (the other may still be writing, and a write
    // after end throws in this process); it ends once the child's streams have all closed.
    const out = createWriteStream(logFile, { flags: 'a' })
    child.stdout?.pipe(out, { end: false })
    child.stderr?.pipe(out, { end: false })
    child.once('close', () => out.end())
    if (verbose) {
      child.stdout?.pipe(process.stdout)
      child.stderr?.pipe(process.stderr)
    }
    let seen = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      // Only the tail is kept: the line is short, and wrangler logs every request after it.
      seen = (seen + chunk.toString()).slice(-2000)
      const ready = /Ready on https?:\/\/[^:\s]+:(\d+)/.exec(stripVTControlCharacters(seen))
      if (ready) front.setUpstream(Number(ready[1]))
    })
    const running = child
    wanted = true
    running.once('exit', (code, signal) => {
      if (!wanted || running !== child) return
      // wrangler's local proxy can die on a client that hangs up mid-body, or under many slow
      // requests at once (the front door limits those; not our code to fix):
      // say so and bring the Workers back, with their state, on the same port.
      restarts++
      console.error(
        `\nwrangler dev exited unexpectedly (${signal ?? `code ${code}`}); restarting it (restart ${restarts}). Its log: ${logFile}, ending:\n${log().slice(-1500)}`,
      )
      killGroup(running, 'SIGKILL')
      startWorkers().catch((error: unknown) => {
        console.error(
          `wrangler dev could not be restarted: ${error instanceof Error ? error.message : error}`,
        )
        process.exitCode = 1
      })
    })
    await waitUntilReady(urls.base_url, running, log)
  }
  let wanted = false
  let restarts = 0
  const stopWorkers = async () => {
    wanted = false
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
    restarts: () => restarts,
    stopWorkers,
    startWorkers,
    stop: async () => {
      await stopWorkers()
      await front.close()
      await processor.close()
      await rm(submissionsConfig, { force: true })
      await rm(gatewayConfig, { force: true })
    },
  }
}
