/**
 * Starts the whole service on one machine: the build, the processor stand-in, and both Workers in
 * workerd through Miniflare (gateway on the port, submissions behind its service binding, local D1
 * with its migrations, Durable Objects). Used by `npm start`, the tests and the benchmark.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { unstable_readConfig } from 'wrangler'
import { build } from '../../build/index.js'
import { LOCAL_URLS, type ServiceUrls, STANDIN_SECRET } from '../../schema/config.js'
import {
  type FacilitatorOptions,
  type FacilitatorStandin,
  LOCAL_RECIPIENT,
  LOCAL_TOKEN,
  startFacilitatorStandin,
} from './facilitator-standin.js'
import { type RunningWorkers, startLocalWorkers } from './local-workers.js'
import { type ProcessorStandin, type StandinOptions, startProcessorStandin } from './processor-standin.js'

export const GATEWAY_CONFIG = 'gateway/wrangler.jsonc'
export const SUBMISSIONS_CONFIG = 'gateway/submissions/wrangler.jsonc'

export interface ServiceOptions {
  port: number
  /** Where local D1 and Durable Object state lives (`.wrangler/state` for npm start). */
  stateDir: string
  /** Gateway var overrides, e.g. a short processor timeout for fault tests. */
  vars?: Record<string, string>
  /** Submissions Worker var overrides, e.g. a higher flood limit for load tests. */
  submissionsVars?: Record<string, string>
  /** Print the runtime's log (npm start) instead of warnings only (tests). */
  verbose?: boolean
  /** Processor stand-in options, e.g. how long a stall token is held. */
  processor?: StandinOptions
  /** Facilitator stand-in options, e.g. how long a stalled settlement is held. */
  facilitator?: FacilitatorOptions
  /** Another gateway config (the benchmark's, with a pure static asset path). */
  gatewayConfig?: string
  /** workerd exited on its own: npm start reports it and exits; tests fail loudly. */
  onRuntimeCrash?: () => void
  /**
   * The content folder to build (`content` by default). Another one (a test's copy) builds into
   * `<stateDir>/dist`, never over the dist/ that tests and tools read.
   */
  contentDir?: string
  /** Opens the V8 inspector on this port (the benchmark's CPU profile). */
  inspectorPort?: number
}

export interface RunningService {
  url: string
  processor: ProcessorStandin
  /** The x402 facilitator stand-in and its chain (the wallet rail). */
  facilitator: FacilitatorStandin
  /** The workerd processes serving it (for the benchmark's CPU accounting). */
  runtimePids(): number[]
  /** Stops the Workers only, leaving state and the stand-in: for restart tests. */
  stopWorkers(): Promise<void>
  startWorkers(): Promise<void>
  /**
   * Builds the content again and serves the new bytes on the same port, state kept (the editor's
   * loop). A build that fails throws its report (BuildFailed) and the last good build stays served.
   */
  rebuild(): Promise<void>
  /** Runs one SQL statement on the submissions database (the benchmark's seeding). */
  submissionsSql(sql: string): Promise<void>
  stop(): Promise<void>
}

/** The environment for every wrangler CLI call (types, dry-run bundles): no telemetry, no look-ups. */
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

/** Vars that name where this service is: set from its port, never taken from the environment. */
const ADDRESS_VARS = new Set([
  'ENVIRONMENT',
  'BASE_URL',
  'SITE_URL',
  'REGISTER_URL',
  'PROCESSOR_URL',
  'FACILITATOR_URL',
  'EVM_RPC_URL',
])

/**
 * The vars of a Worker's config that the environment sets, as a deployed Worker takes its vars:
 * `PROCESSOR_TIMEOUT_MS=500 npm start`. Only names the config declares are read.
 */
export function varsFromEnvironment(config: string, env: NodeJS.ProcessEnv = process.env) {
  const names = Object.keys(unstable_readConfig({ config }).vars ?? {}).filter((n) => !ADDRESS_VARS.has(n))
  return Object.fromEntries(names.flatMap((n) => (env[n] === undefined ? [] : [[n, env[n] as string]])))
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

/** The workerd processes among this process's children (Linux /proc). */
function workerdChildren(): number[] {
  const pids: number[] = []
  for (const task of readdirSync(`/proc/${process.pid}/task`)) {
    const children = readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8').trim()
    for (const pid of children ? children.split(' ').map(Number) : [])
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'workerd') pids.push(pid)
  }
  return pids
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { port, stateDir } = options
  await assertPortFree(port)
  const urls = localUrls(port)
  await mkdir(stateDir, { recursive: true })
  // The discovery files name this service's address, so it serves its own copy of them.
  const publicDir = join(stateDir, 'public')
  const contentDir = options.contentDir ?? 'content'
  const outDir = contentDir === 'content' ? 'dist' : join(stateDir, 'dist')
  const buildContent = () => build({ contentDir, outDir, publicDir, urls })
  await buildContent()
  const processor = await startProcessorStandin(options.processor)
  const facilitator = await startFacilitatorStandin(options.facilitator)
  const submissionsVars = {
    SUBMITTER_SALT: await localSecret(stateDir, 'submitter-salt'),
    // Aggregates a few seconds old, not a day: a local user sees their row counted soon.
    AGGREGATE_SNAPSHOT_SECONDS: '5',
    ...varsFromEnvironment(SUBMISSIONS_CONFIG),
    ...options.submissionsVars,
  }
  const gatewayConfig = options.gatewayConfig ?? GATEWAY_CONFIG
  const vars: Record<string, string> = {
    ENVIRONMENT: 'local',
    BASE_URL: urls.base_url,
    SITE_URL: urls.site_url,
    REGISTER_URL: urls.register_url,
    REALM: `127.0.0.1:${port}`,
    PROCESSOR_URL: processor.url,
    PROCESSOR_SECRET: STANDIN_SECRET,
    // The wallet rail pays the stand-in chain's test USDC (Base Sepolia's address and domain).
    EVM_CHAIN_ID: String(LOCAL_TOKEN.chainId),
    EVM_TOKEN: LOCAL_TOKEN.address,
    EVM_TOKEN_NAME: LOCAL_TOKEN.name,
    EVM_TOKEN_VERSION: LOCAL_TOKEN.version,
    EVM_TOKEN_DECIMALS: String(LOCAL_TOKEN.decimals),
    EVM_RECIPIENT: LOCAL_RECIPIENT,
    FACILITATOR_URL: facilitator.url,
    // The operator's bearer for GET /v1/operator/wallet-owed (npm run wallet-owed).
    OPERATOR_TOKEN: await localSecret(stateDir, 'operator-token'),
    EVM_RPC_URL: facilitator.rpcUrl,
    PAYMENT_HMAC_SECRET: await localSecret(stateDir, 'payment-hmac-secret'),
    RECEIPT_SIGNING_KEY: await localSecret(stateDir, 'receipt-signing-key.json', newSigningKey),
    ...varsFromEnvironment(gatewayConfig),
    ...options.vars,
  }
  let workers: RunningWorkers | undefined
  // The submissions database as its config names it, read once (the benchmark seeds through it).
  const submissionsConfig = unstable_readConfig({ config: SUBMISSIONS_CONFIG })
  const submissionsDb = {
    worker: submissionsConfig.name,
    binding: submissionsConfig.d1_databases[0]?.binding ?? 'DB',
  }
  const startWorkers = async () => {
    workers = await startLocalWorkers({
      port,
      stateDir,
      verbose: options.verbose,
      onRuntimeCrash: options.onRuntimeCrash,
      ...(outDir === 'dist' ? {} : { distDir: outDir }),
      ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
      workers: [
        { config: gatewayConfig, vars, assetsDirectory: publicDir },
        { config: SUBMISSIONS_CONFIG, vars: submissionsVars },
      ],
    })
  }
  const stopWorkers = async () => {
    await workers?.dispose()
    workers = undefined
  }
  try {
    await startWorkers()
  } catch (error) {
    await processor.close()
    await facilitator.close()
    throw error
  }
  return {
    url: urls.base_url,
    processor,
    facilitator,
    runtimePids: workerdChildren,
    stopWorkers,
    startWorkers,
    rebuild: async () => {
      await buildContent()
      await workers?.reload()
    },
    submissionsSql: async (sql) => {
      if (!workers) throw new Error('the Workers are not running')
      const db = await workers.miniflare.getD1Database(submissionsDb.binding, submissionsDb.worker)
      await db.prepare(sql).run()
    },
    stop: async () => {
      await stopWorkers()
      await processor.close()
      await facilitator.close()
    },
  }
}
