/**
 * The staged deploy of both Workers, one step per command so the workflow shows the order
 * (.github/workflows/deploy.yml). State between steps lives in .deploy/state.json.
 *
 *   record                 note the version serving 100% now, for each Worker (refuses a split deployment)
 *   upload                 upload a new version of each Worker, serving no traffic (secrets ride along)
 *   smoke                  put the new versions in the deployment at 0% and run scripts/deploy/smoke.ts against
 *                          them through version overrides (and the preview URL when Cloudflare made one);
 *                          when PROCESSOR_SECRET is a Stripe test key, also pay one paid route end to
 *                          end with a test token (scripts/deploy/smoke-payment.ts); a live key pays nothing
 *   stage <percent>        send <percent> of traffic to the new versions, the rest to the recorded ones
 *   bake <seconds> <max>   for <seconds>, probe the new and the recorded versions side by side; stop
 *                          when the new versions' failure share exceeds the old ones' by more than <max>
 *                          percentage points
 *   rollback               send all traffic back to the recorded versions (an exempt revert: one step)
 *   registry-check <file>  whether the MCP Registry already holds this name and version (publish=false)
 *
 * Shares, bake time and the error bar come from content (scripts/deploy/deploy-thresholds.ts), never typed.
 */
import { spawnSync } from 'node:child_process'
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REGISTRY_API } from '../../build/stages/registry.js'
import { smoke } from './smoke.js'
import { checkTestKey, smokePayment } from './smoke-payment.js'

/** The Workers, in the order they move: the submissions Worker behind the gateway first. */
export const WORKERS = [
  {
    name: 'rules-pricing-submissions',
    config: 'gateway/submissions/wrangler.jsonc',
    secrets: ['SUBMITTER_SALT'],
  },
  {
    name: 'rules-pricing-gateway',
    config: 'gateway/wrangler.jsonc',
    secrets: ['PROCESSOR_SECRET', 'PAYMENT_HMAC_SECRET', 'RECEIPT_SIGNING_KEY'],
  },
] as const

interface WorkerState {
  name: string
  config: string
  /** The version serving 100% before this deploy; null for a Worker's first deploy. */
  previous: string | null
  next?: string
  previewUrl?: string | null
}

const STATE = '.deploy/state.json'
const load = (): WorkerState[] => JSON.parse(readFileSync(STATE, 'utf8'))
const save = (state: WorkerState[]) => {
  mkdirSync('.deploy', { recursive: true })
  writeFileSync(STATE, `${JSON.stringify(state, null, 2)}\n`)
}

function wrangler(args: string[], env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync('npx', ['wrangler', ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  process.stdout.write(result.stdout ?? '')
  if (result.status !== 0) throw new Error(`wrangler ${args.join(' ')} exited ${result.status}`)
  return result.stdout ?? ''
}

/** `versions deploy` with each version's share; a share of 0 keeps a version reachable by override only. */
export function deployArgs(worker: WorkerState, percent: number): string[] {
  if (!worker.next) throw new Error(`${worker.name}: no uploaded version (run upload first)`)
  const specs =
    worker.previous === null || percent >= 100
      ? [`${worker.next}@100`]
      : [`${worker.next}@${percent}`, `${worker.previous}@${Math.round((100 - percent) * 1000) / 1000}`]
  return [
    'versions',
    'deploy',
    ...specs,
    '-c',
    worker.config,
    '-y',
    '--message',
    `staged deploy: ${percent}% to ${worker.next}`,
  ]
}

/** The override header that reaches the given versions of both Workers in the current deployment. */
export function overrideHeader(state: WorkerState[], which: 'next' | 'previous'): Record<string, string> {
  const pairs = state.filter((w) => w[which]).map((w) => `${w.name}="${w[which]}"`)
  return pairs.length ? { 'Cloudflare-Workers-Version-Overrides': pairs.join(', ') } : {}
}

const baseUrl = () => {
  const value = process.env.BASE_URL
  if (!value?.startsWith('https://')) throw new Error('BASE_URL (the deployed https address) is not set')
  return value
}

async function record() {
  const state: WorkerState[] = WORKERS.map((w) => {
    const result = spawnSync('npx', ['wrangler', 'deployments', 'status', '--json', '-c', w.config], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    if (result.status !== 0) {
      // Only wrangler's own "no deployments" answer means a first deploy; any other failure (auth,
      // network) stops here rather than skipping the stages.
      if (/has no deployments/.test(`${result.stdout}${result.stderr}`)) {
        console.log(`${w.name}: no deployment yet; this is its first deploy`)
        return { name: w.name, config: w.config, previous: null }
      }
      process.stderr.write(result.stderr ?? '')
      throw new Error(`wrangler deployments status for ${w.name} exited ${result.status}`)
    }
    const status = JSON.parse(result.stdout) as { versions: { version_id: string; percentage: number }[] }
    const serving = status.versions.filter((v) => v.percentage > 0)
    if (serving.length !== 1)
      throw new Error(
        `${w.name} is split across ${serving.length} versions: finish or roll back that deployment first`,
      )
    return { name: w.name, config: w.config, previous: (serving[0] as { version_id: string }).version_id }
  })
  save(state)
  for (const w of state) console.log(`${w.name}: serving ${w.previous ?? '(nothing)'}`)
}

async function upload() {
  const state = load()
  const sha = (process.env.GITHUB_SHA ?? 'local').slice(0, 12)
  for (const worker of state) {
    const spec = WORKERS.find((w) => w.name === worker.name)
    const dir = join(tmpdir(), `deploy-${worker.name}-${process.pid}`)
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const secretsFile = join(dir, 'secrets.json')
    const outputFile = join(dir, 'wrangler-output.ndjson')
    const secrets = Object.fromEntries(
      (spec?.secrets ?? []).flatMap((n) => (process.env[n] ? [[n, process.env[n]]] : [])),
    )
    writeFileSync(secretsFile, JSON.stringify(secrets), { mode: 0o600 })
    try {
      wrangler(
        [
          'versions',
          'upload',
          '-c',
          worker.config,
          '--tag',
          sha,
          '--message',
          `commit ${sha}`,
          '--secrets-file',
          secretsFile,
        ],
        { WRANGLER_OUTPUT_FILE_PATH: outputFile },
      )
      const entry = readFileSync(outputFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { type: string; version_id?: string; preview_url?: string | null })
        .find((e) => e.type === 'version-upload')
      if (!entry?.version_id) throw new Error(`${worker.name}: wrangler reported no version id`)
      worker.next = entry.version_id
      worker.previewUrl = entry.preview_url ?? null
      console.log(
        `${worker.name}: uploaded ${worker.next}${worker.previewUrl ? ` (preview ${worker.previewUrl})` : ''}`,
      )
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  save(state)
}

async function runSmoke(target: string, headers: Record<string, string>, realm: string) {
  const checks = await smoke(target, { headers, realm })
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
  return checks
}

async function smokeNew() {
  const state = load()
  // Cloudflare routes an override only to a version in the current deployment: add the new
  // versions at 0%, which moves no traffic. A Worker's first deploy has nothing to protect and
  // nothing to reach the new version through, so it goes to 100% before its smoke test.
  for (const worker of state) wrangler(deployArgs(worker, worker.previous ? 0 : 100))
  const realm = process.env.REALM || new URL(baseUrl()).host
  const targets: [string, Record<string, string>][] = [[baseUrl(), overrideHeader(state, 'next')]]
  // Cloudflare makes no preview URL for a Worker that implements a Durable Object (the gateway);
  // when one exists it is checked too.
  for (const worker of state) if (worker.previewUrl) targets.push([worker.previewUrl, {}])
  let failed = 0
  for (const [target, headers] of targets) {
    console.log(`smoke test against ${target} ${JSON.stringify(headers)}`)
    failed += (await runSmoke(target, headers, realm)).filter((c) => !c.ok).length
  }
  const key = paymentSmokeKey(process.env.PROCESSOR_SECRET)
  if (key) {
    console.log('payment smoke (test key): one paid route, end to end')
    const checks = await smokePayment(baseUrl(), { key, headers: overrideHeader(state, 'next') })
    for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
    failed += checks.filter((c) => !c.ok).length
  } else console.log('payment smoke skipped: PROCESSOR_SECRET is not a Stripe test key')
  if (failed)
    throw new Error(`${failed} smoke check(s) failed against the new versions; no traffic was moved`)
}

/** The key the payment smoke pays with: the gateway's own, only when it is a Stripe test key. */
export function paymentSmokeKey(processorSecret: string | undefined): string | undefined {
  try {
    return checkTestKey(processorSecret)
  } catch {
    return undefined
  }
}

async function stage(percent: number) {
  if (!(percent > 0 && percent <= 100)) throw new Error(`stage takes a share in (0, 100], got ${percent}`)
  for (const worker of load()) wrangler(deployArgs(worker, percent))
}

/** The failure share of each side and whether the new side's rise is over the bar. */
export function bakeVerdict(
  counts: { next: { probes: number; failures: number }; previous: { probes: number; failures: number } },
  maxRisePoints: number,
) {
  const share = (c: { probes: number; failures: number }) => (c.probes ? (100 * c.failures) / c.probes : 0)
  const rise = share(counts.next) - share(counts.previous)
  return {
    nextShare: share(counts.next),
    previousShare: share(counts.previous),
    rise,
    ok: rise <= maxRisePoints,
  }
}

async function bake(seconds: number, maxRisePoints: number, intervalSeconds = 30) {
  const state = load()
  const realm = process.env.REALM || new URL(baseUrl()).host
  const counts = { next: { probes: 0, failures: 0 }, previous: { probes: 0, failures: 0 } }
  const until = Date.now() + seconds * 1000
  for (let round = 1; ; round++) {
    for (const side of ['next', 'previous'] as const) {
      if (side === 'previous' && !state.some((w) => w.previous)) continue
      const checks = await smoke(baseUrl(), { headers: overrideHeader(state, side), realm })
      counts[side].probes += checks.length
      counts[side].failures += checks.filter((c) => !c.ok).length
      for (const c of checks.filter((c) => !c.ok))
        console.log(`round ${round} ${side}: FAIL ${c.name}: ${c.detail}`)
    }
    const verdict = bakeVerdict(counts, maxRisePoints)
    console.log(
      `round ${round}: new ${counts.next.failures}/${counts.next.probes} failed, old ${counts.previous.failures}/${counts.previous.probes}; rise ${verdict.rise.toFixed(3)} points (max ${maxRisePoints})`,
    )
    if (!verdict.ok)
      throw new Error(
        `the new versions' failure share rose ${verdict.rise.toFixed(3)} points over the old ones'`,
      )
    if (Date.now() >= until) break
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalSeconds * 1000, until - Date.now())))
  }
}

async function rollback() {
  if (!existsSync(STATE)) return console.log('nothing recorded: nothing was moved')
  for (const worker of load().reverse()) {
    if (!worker.previous) {
      console.log(`${worker.name}: first deploy, no earlier version to return to`)
      continue
    }
    wrangler([
      'versions',
      'deploy',
      `${worker.previous}@100`,
      '-c',
      worker.config,
      '-y',
      '--message',
      'staged deploy stopped: back to the recorded version',
    ])
  }
}

/** Whether the registry already lists this exact name and version (then publishing is skipped). */
export async function registryHas(name: string, version: string, api = REGISTRY_API): Promise<boolean> {
  let cursor: string | undefined
  for (let page = 0; page < 50; page++) {
    const url = new URL(api)
    url.searchParams.set('search', name)
    if (cursor) url.searchParams.set('cursor', cursor)
    const r = await fetch(url, { signal: AbortSignal.timeout(15_000) })
    if (!r.ok) throw new Error(`registry answered ${r.status} for ${url}`)
    const body = (await r.json()) as {
      servers?: { server?: { name: string; version: string } }[]
      metadata?: { nextCursor?: string }
    }
    if (body.servers?.some((s) => s.server?.name === name && s.server?.version === version)) return true
    cursor = body.metadata?.nextCursor
    if (!cursor) return false
  }
  return false
}

async function registryCheck(file: string) {
  const entry = JSON.parse(readFileSync(file, 'utf8')) as { name: string; version: string }
  const listed = await registryHas(entry.name, entry.version)
  console.log(
    listed
      ? `${entry.name} ${entry.version} is already in the MCP Registry`
      : `${entry.name} ${entry.version} is new`,
  )
  if (process.env.GITHUB_OUTPUT)
    appendFileSync(process.env.GITHUB_OUTPUT, `publish=${listed ? 'false' : 'true'}\n`)
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [command, ...args] = process.argv.slice(2)
  const commands: Record<string, () => Promise<unknown>> = {
    record,
    upload,
    smoke: smokeNew,
    stage: () => stage(Number(args[0])),
    bake: () => bake(Number(args[0]), Number(args[1])),
    rollback,
    'registry-check': () => registryCheck(args[0] ?? 'dist/public/.well-known/mcp/server.json'),
  }
  const run = commands[command ?? '']
  if (!run) {
    console.error(`usage: deploy-stage.ts ${Object.keys(commands).join('|')} [args]`)
    process.exit(2)
  }
  try {
    await run()
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
