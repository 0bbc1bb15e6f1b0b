/**
 * npm run bench: measures, in one run on this machine, and prints ratios (absolute numbers on a
 * shared two-core machine are noise; ratios within one run are not):
 *  (a) CPU per request of each gateway route, from the workerd processes' own CPU counters,
 *      against a plain static asset served by the same workerd;
 *  (b) throughput and p50/p99 latency under a local load generator (undici, 127.0.0.1 only);
 *  (c) Worker bundle size (raw, gzip) and cold start;
 *  (d) build time for the real content and for content 100× larger;
 *  (e) aggregate read and submit latency at 10k and 1M stored submissions;
 *  (f) the reconciler's processor calls per run with 1,000 and 100,000 other intents on the account.
 *  (g) a paid call's CPU, Worker and ledger apart, against a free preview, and a fresh isolate's start.
 *  (h) the memory of 300 copies of one held credential released together, against an isolate's 128 MB.
 * Writes bench/results.md. `npm run bench -- --reconciler` prints (f) alone, `-- --paid` (g) alone,
 * `-- --resend` (h) alone.
 */
import { execFileSync } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import { Challenge, Credential } from 'mppx'
import { Pool } from 'undici'
import { type Hex, keccak256, toHex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { parse, stringify } from 'yaml'
import { bundleComposition } from '../../bench/bundle-composition.js'
import { bundleLines, type CpuSplit, profileRequests, traceObjectCalls } from '../../bench/paid-profile.js'
import {
  BAND_ORPHANS,
  BAND_OTHER,
  type ReconcilerCostRow,
  reconcilerCost,
} from '../../bench/reconciler-cost.js'
import { ISOLATE_LIMIT_MB, resendMemory, unpaidMemory } from '../../bench/resend-memory.js'
import { build } from '../../build/index.js'
import { SEALING_KEY_FILE } from '../../build/stages/bundle.js'
import { readBundles } from '../../gateway/datasets/bundle-store.js'
import { HitBatch } from '../../gateway/hit-batch.js'
import { signedReceipt } from '../../gateway/payment/signed-receipt.js'
import { syntheticSeedSql } from '../../gateway/submissions/seed-sql.js'
import { LOCAL_URLS } from '../../schema/config.js'
import type { BundleManifest } from '../../schema/datasets.js'
import { TRANSFER_TYPES } from '../../schema/eip3009.js'
import { LOCAL_TOKEN } from '../local/facilitator-standin.js'
import { quietEnv, type RunningService, startService } from '../local/service.js'

const PORT = Number(process.env.BENCH_PORT ?? 8798)
/** The V8 inspector of the benchmark's workerd: section (g) profiles the gateway's isolate through it. */
const INSPECTOR_PORT = PORT + 1
const BASE = `http://127.0.0.1:${PORT}`
const lines: string[] = []
const say = (line = '') => {
  console.log(line)
  lines.push(line)
}
const fmt = (n: number, digits = 2) => n.toFixed(digits)
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

// ---------------------------------------------------------------- workerd CPU accounting

let service: RunningService | undefined

/** The workerd processes serving this run. */
const workerdPids = () => service?.runtimePids() ?? []

/** User + system CPU of the given processes, in milliseconds (from /proc, clock ticks of 10 ms). */
async function cpuMs(pids: number[]): Promise<number> {
  let ticks = 0
  for (const pid of pids) {
    try {
      const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]?.split(' ') ?? []
      ticks += Number(fields[11]) + Number(fields[12])
    } catch {
      // the process ended
    }
  }
  return ticks * 10
}

// ---------------------------------------------------------------- requests

interface Probe {
  label: string
  /** Builds one request; paid probes pay a fresh challenge each time. */
  request: () => Promise<RequestInit & { path: string }>
  /** CPU of preparing the request on the server side (the unpaid 402 of a paid call) to subtract. */
  overhead?: string
}

let tokenNo = 0
async function paidRequest(path: string) {
  const unpaid = await fetch(`${BASE}${path}`)
  const challenge = Challenge.fromResponse(unpaid)
  const spt = `spt_test_bench_${process.pid}_${tokenNo++}`
  return {
    path,
    headers: { authorization: Credential.serialize(Credential.from({ challenge, payload: { spt } })) },
  }
}

/** A paid call on the wallet rail: a fresh key (the stand-in funds it) signs the evm challenge. */
async function paidWalletRequest(path: string) {
  const unpaid = await fetch(`${BASE}${path}`)
  const challenge = Challenge.fromResponseList(unpaid).find((c) => c.method === 'evm')
  if (!challenge) throw new Error('no evm challenge: is the wallet rail configured?')
  const request = challenge.request as {
    amount: string
    currency: Hex
    recipient: Hex
    methodDetails: { chainId: number }
  }
  const account = privateKeyToAccount(generatePrivateKey())
  const authorization = {
    from: account.address,
    to: request.recipient,
    value: request.amount,
    validAfter: '0',
    validBefore: String(Math.floor(Date.parse(challenge.expires as string) / 1000)),
    nonce: keccak256(toHex(`${challenge.id}${challenge.realm}`)),
  }
  const signature = await account.signTypedData({
    domain: {
      name: LOCAL_TOKEN.name,
      version: LOCAL_TOKEN.version,
      chainId: request.methodDetails.chainId,
      verifyingContract: request.currency,
    },
    types: TRANSFER_TYPES,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: 0n,
      validBefore: BigInt(authorization.validBefore),
    },
  })
  const payload = { type: 'authorization', ...authorization, signature }
  return { path, headers: { authorization: Credential.serialize(Credential.from({ challenge, payload })) } }
}

const mcp = (method: string, params: unknown) => ({
  path: '/mcp',
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
})

async function send(init: RequestInit & { path: string }) {
  const r = await fetch(`${BASE}${init.path}`, init)
  const bytes = (await r.arrayBuffer()).byteLength
  return { status: r.status, bytes }
}

async function cpuPerRequest(
  probe: Probe,
  n: number,
): Promise<{ ms: number; bytes: number; status: number }> {
  for (let i = 0; i < 20; i++) await send(await probe.request()) // warm the isolate and caches
  let total = 0
  let kept = 0
  let last = { status: 0, bytes: 0 }
  for (let i = 0; i < n; i++) {
    const init = await probe.request() // a paid probe's unpaid 402 runs here, outside the window below
    const pids = workerdPids()
    const before = await cpuMs(pids)
    last = await send(init)
    const spent = (await cpuMs(pids)) - before
    // A workerd that restarted mid-sample (wrangler reloads on file changes) resets its counters.
    if (spent < 0 || workerdPids().join() !== pids.join()) continue
    total += spent
    kept++
  }
  return { ms: kept ? total / kept : Number.NaN, ...last }
}

async function load(path: string, init: RequestInit, seconds: number, connections: number, base = BASE) {
  const pool = new Pool(base, { connections })
  const latencies: number[] = []
  const deadline = Date.now() + seconds * 1000
  let errors = 0
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < deadline) {
        const started = performance.now()
        try {
          const r = await pool.request({
            path,
            method: (init.method ?? 'GET') as 'GET',
            headers: init.headers as Record<string, string>,
            body: init.body as string | undefined,
          })
          await r.body.dump()
          latencies.push(performance.now() - started)
        } catch {
          errors++
        }
      }
    }),
  )
  await pool.close()
  latencies.sort((a, b) => a - b)
  return {
    rps: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors,
  }
}

/** Requests/s of a plain node:http server answering `body` (mean of 3 runs of 3 s, 16 connections). */
async function nodeHttpCeiling(body: string): Promise<number> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  let rps = 0
  for (let round = 0; round < 3; round++) rps += (await load('/agents.json', {}, 3, 16, base)).rps / 3
  await new Promise((resolve) => server.close(resolve))
  return rps
}

/** Requests/s of a one-line Worker in Miniflare, optionally with an assets directory in front. */
async function trivialWorkerRps(assetsDirectory: string | undefined): Promise<number> {
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      modules: true,
      compatibilityDate: '2026-08-01',
      script: 'export default { fetch() { return new Response("hello") } }',
      ...(assetsDirectory
        ? {
            assets: {
              directory: assetsDirectory,
              binding: 'ASSETS',
              routerConfig: { has_user_worker: true },
            },
          }
        : {}),
      cf: false,
      log: new Log(LogLevel.WARN),
      logRequests: false,
      enableDevRegistry: false,
      telemetry: { enabled: false },
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  )
  const base = (await miniflare.ready).origin
  let rps = 0
  for (let round = 0; round < 3; round++) rps += (await load('/trivial', {}, 3, 16, base)).rps / 3
  await miniflare.dispose()
  return rps
}

// ---------------------------------------------------------------- build at scale

async function content100x(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rpi-bench-content-'))
  await cp('content', dir, { recursive: true })
  // Scenarios judge the router on the real content; 100 copies of each gate would break their counts.
  for (const file of await readdir(join(dir, 'scenarios'))) await rm(join(dir, 'scenarios', file))
  // Every gate and rule says what it guards against (harm.yaml): each copy says the same as its original.
  const harm = parse(await readFile(join(dir, 'harm.yaml'), 'utf8')) as Record<
    'gates' | 'rules',
    Record<string, unknown>
  >
  for (const folder of ['rules', 'playbooks', 'gates', 'pricing/rows']) {
    const files = await readdir(join(dir, folder))
    for (const file of files) {
      const item = parse(await readFile(join(dir, folder, file), 'utf8'))
      for (let copy = 1; copy < 100; copy++) {
        const clone = { ...item, id: `${item.id}-x${copy}` }
        if ('title' in clone) clone.title = `${clone.title} (copy ${copy})`
        await writeFile(join(dir, folder, `${clone.id}.yaml`), stringify(clone))
        const book = folder === 'gates' || folder === 'rules' ? harm[folder] : undefined
        if (book) book[clone.id] = book[item.id]
      }
    }
  }
  // Each copy shares its original's entry: written out in full, never as YAML aliases (the build's
  // parser refuses more than a hundred, as a guard against alias bombs).
  await writeFile(join(dir, 'harm.yaml'), stringify(harm, { aliasDuplicateObjects: false }))
  return dir
}

/** CPU per signed receipt (signedReceipt: digest + Ed25519 JWS), as a paid answer pays it once. */
async function signingCost(n = 2000) {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as { d: string; x: string }
  const keys = {
    signing: { kty: 'OKP' as const, crv: 'Ed25519' as const, d: jwk.d, x: jwk.x, kid: 'bench' },
    retired: [],
    issuer: BASE,
  }
  const body = await (await fetch(`${BASE}/v1/fde-lessons/preview`)).text()
  const receipt = {
    status: 'success' as const,
    method: 'stripe' as const,
    timestamp: new Date().toISOString(),
    reference: 'pi_bench',
    challengeId: 'bench',
    amount: '50',
    currency: 'usd',
  }
  await signedReceipt(keys, receipt, 'GET /v1/fde-lessons?topic=metadata', body) // warm: key import
  const before = process.cpuUsage()
  for (let i = 0; i < n; i++) await signedReceipt(keys, receipt, 'GET /v1/fde-lessons?topic=metadata', body)
  const used = process.cpuUsage(before)
  return { n, bytes: body.length, ms: (used.user + used.system) / 1000 / n }
}

/**
 * CPU of counting one hit as the gateway does (gateway/hit-batch.ts: client class and an in-memory
 * increment). A batch leaves each isolate once every few seconds, so its one subrequest is spread
 * over all the hits it carries and left out here.
 */
function countingCost(n = 200_000) {
  const counter = new HitBatch()
  const before = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    counter.add('catalogue', 'free', 'bench-agent/1.0 (node)')
    if (counter.total >= 1_000) counter.take()
  }
  const used = process.cpuUsage(before)
  return { n, ms: (used.user + used.system) / 1000 / n }
}

/** The gateway bundle size the lean-Worker work aims at (gzip, as wrangler reports it). */
const BUNDLE_GOAL_KIB = 160

/**
 * What moving the bundles out of the Worker costs each new isolate: reading every bundle from
 * dist/public as the ASSETS binding would hand it over, unsealing the paid ones, checking hashes.
 */
async function timeBundleRead(): Promise<{ ms: number; bytes: number; runs: number }> {
  const manifest = JSON.parse(await readFile('dist/private/manifest.json', 'utf8')) as BundleManifest
  const { key } = JSON.parse(await readFile(`dist/private/${SEALING_KEY_FILE}`, 'utf8')) as { key: string }
  let bytes = 0
  const assets = {
    fetch: async (request: Request) => {
      const text = await readFile(`dist/public${new URL(request.url).pathname}`, 'utf8')
      bytes += Buffer.byteLength(text)
      return new Response(text)
    },
  }
  const runs = 20
  await readBundles(assets, manifest, key)
  bytes = 0
  const started = process.cpuUsage()
  for (let i = 0; i < runs; i++) await readBundles(assets, manifest, key)
  const used = process.cpuUsage(started)
  return { ms: (used.user + used.system) / 1000 / runs, bytes: bytes / runs, runs }
}

async function timeBuild(contentDir: string, synthetic?: Parameters<typeof build>[0]['expected']) {
  const outDir = await mkdtemp(join(tmpdir(), 'rpi-bench-dist-'))
  const started = performance.now()
  // Synthetic content: no inventory counts, and never sold, so no Markdown budgets.
  await build({
    contentDir,
    outDir,
    urls: LOCAL_URLS,
    ...(synthetic ? { expected: synthetic, checkBudgets: false } : {}),
  })
  const ms = performance.now() - started
  await rm(outDir, { recursive: true, force: true })
  return ms
}

// ---------------------------------------------------------------- aggregates at scale

async function seed(running: RunningService, count: number) {
  for (const sql of syntheticSeedSql(count)) await running.submissionsSql(sql)
}

async function aggregateLatency(samples: number) {
  const read: number[] = []
  const submit: number[] = []
  for (let i = 0; i < samples; i++) {
    let started = performance.now()
    await send({ path: '/v1/pricing/aggregates' })
    read.push(performance.now() - started)
    started = performance.now()
    const r = await send({
      path: '/v1/pricing/submit',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': `10.9.${i % 250}.${i % 200}` },
      body: JSON.stringify({
        category: 'model-api',
        pricing_model: 'per-token',
        unit_price_usd: 0.5 + i / 1000,
      }),
    })
    if (r.status !== 202) throw new Error(`submit answered ${r.status}`)
    submit.push(performance.now() - started)
  }
  read.sort((a, b) => a - b)
  submit.sort((a, b) => a - b)
  return { read: percentile(read, 0.5), readP99: percentile(read, 0.99), submit: percentile(submit, 0.5) }
}

// ---------------------------------------------------------------- the reconciler

/** Section (f): the reconciler's processor calls per run, and their ratio. */
function sayReconcilerCost(reconciler: ReconcilerCostRow[]) {
  say()
  say("## (f) The reconciler's processor calls per run (counted at the stand-in, not timed)")
  say()
  say(
    `One run over the same band (${BAND_OTHER + BAND_ORPHANS} intents old enough to be orphans, ${BAND_ORPHANS} of them unclaimed charges of this service it refunds), with other intents on the account outside the band:`,
  )
  say()
  say('| other intents on the account | processor calls in the run | refunds |')
  say('|---|---|---|')
  for (const r of reconciler) say(`| ${r.otherIntents.toLocaleString('en')} | ${r.calls} | ${r.refunds} |`)
  const few = reconciler[0]
  const many = reconciler.at(-1)
  if (few && many) {
    const ratio = many.calls / few.calls
    say(
      `\nRatio ${many.otherIntents.toLocaleString('en')} / ${few.otherIntents.toLocaleString('en')}: ${fmt(ratio)}× processor calls per run (${ratio <= 1.2 ? 'within' : 'NOT within'} 1.2×).`,
    )
  }
}

// ---------------------------------------------------------------- a paid call, Worker and ledger apart

const PAID_PATH = '/v1/fde-lessons?topic=metadata'
const FREE_PATH = '/v1/fde-lessons/preview'

/** CPU of a series of requests: all workerd processes (counters) and the gateway isolate (profile). */
async function measured(inits: (RequestInit & { path: string })[], stateDir: string) {
  const bundle = join(stateDir, 'bundles', 'rules-pricing-gateway.js')
  const pids = workerdPids()
  const before = await cpuMs(pids)
  let status = 0
  let bytes = 0
  const profile = await profileRequests(
    `ws://127.0.0.1:${INSPECTOR_PORT}/core:user:rules-pricing-gateway`,
    await bundleLines(bundle),
    inits.length,
    async () => {
      for (const init of inits) ({ status, bytes } = await send(init))
    },
  )
  const process = ((await cpuMs(pids)) - before) / inits.length
  return { ...profile, process, status, bytes }
}

type Measured = Awaited<ReturnType<typeof measured>>

/** How many turns section (g)'s free, card and wallet calls take (see sayPaidSplit). */
const TURNS = 4

/** Equal series of requests measured apart, as one: the mean per request of each part. */
function pooled(series: Measured[]): Measured {
  const mean = (of: (m: Measured) => number) => series.reduce((sum, m) => sum + of(m), 0) / series.length
  const functions = new Map<string, number>()
  for (const m of series)
    for (const [name, ms] of m.functions) functions.set(name, (functions.get(name) ?? 0) + ms / series.length)
  const last = series[series.length - 1] as Measured
  return {
    worker: mean((m) => m.worker),
    stubs: mean((m) => m.stubs),
    ledger: mean((m) => m.ledger),
    runtime: mean((m) => m.runtime),
    gc: mean((m) => m.gc),
    process: mean((m) => m.process),
    functions: new Map([...functions].sort((a, b) => b[1] - a[1])),
    status: series.every((m) => m.status === last.status) ? last.status : 0,
    bytes: last.bytes,
  }
}

/** CPU of workerd from spawn to ready with an empty Worker: the runtime's own start, without any Worker. */
async function emptyRuntimeStart(): Promise<number> {
  const before = new Set(workerdPids())
  const miniflare = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      modules: true,
      compatibilityDate: '2026-08-01',
      script: 'export default { fetch() { return new Response("") } }',
      cf: false,
      log: new Log(LogLevel.WARN),
      logRequests: false,
      enableDevRegistry: false,
      telemetry: { enabled: false },
    } as Parameters<typeof convertV4MiniflareOptions>[0]),
  )
  try {
    await miniflare.ready
    const pids = execFileSync('pgrep', ['-P', String(process.pid), 'workerd'], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map(Number)
      .filter((pid) => !before.has(pid))
    return await cpuMs(pids)
  } finally {
    await miniflare.dispose()
  }
}

/** Section (g): a paid one-topic call against a free preview, part by part, and an isolate's start. */
async function sayPaidSplit(stateDir: string, n = 100) {
  const warm = [...Array(20)].map(() => ({ path: FREE_PATH }))
  await measured(warm, stateDir)
  // Every credential is bought before the window: the unpaid 402 of each call is not counted.
  const paid: (RequestInit & { path: string })[] = []
  for (let i = 0; i < n + 20; i++) paid.push(await paidRequest(PAID_PATH))
  await measured(paid.splice(0, 20), stateDir)
  // The same call on the wallet rail (EIP-712 check in the Worker; facilitator and chain stand-ins).
  const wallet: (RequestInit & { path: string })[] = []
  for (let i = 0; i < n + 20; i++) wallet.push(await paidWalletRequest(PAID_PATH))
  await measured(wallet.splice(0, 20), stateDir)
  // Free, card and wallet calls take turns, a part of each at a time: a burst of load on this shared
  // machine then falls on all three alike rather than on one of them (their ratios are the point).
  const turns: Record<'free' | 'card' | 'wallet', Measured[]> = { free: [], card: [], wallet: [] }
  const part = Math.ceil(n / TURNS)
  for (let t = 0; t < TURNS; t++) {
    const [from, to] = [t * part, Math.min(n, (t + 1) * part)]
    turns.free.push(
      await measured(
        [...Array(to - from)].map(() => ({ path: FREE_PATH })),
        stateDir,
      ),
    )
    turns.card.push(await measured(paid.slice(from, to), stateDir))
    turns.wallet.push(await measured(wallet.slice(from, to), stateDir))
  }
  const [free, bought, byWallet] = [pooled(turns.free), pooled(turns.card), pooled(turns.wallet)]
  if (bought.status !== 200 || free.status !== 200)
    throw new Error(`paid answered ${bought.status}, free ${free.status}`)
  if (byWallet.status !== 200) throw new Error(`a paid wallet call answered ${byWallet.status}`)
  const calls = await callsPerPaidCall(stateDir, 20)
  const sampled = (c: CpuSplit) => c.worker + c.stubs + c.ledger + c.runtime + c.gc
  say()
  say(
    `## (g) A paid call, Worker and ledger apart (${n} sequential requests each, in ${TURNS} turns, one run)`,
  )
  say()
  say(
    `Paid one-topic call \`${PAID_PATH}\` (${bought.bytes} bytes) against the free preview \`${FREE_PATH}\` (${free.bytes} bytes). The split comes from a V8 CPU profile of the gateway's isolate (50 µs sampling): the ledger is the Durable Objects' own tasks (the payment ledger and the attempt limiter, and the code only they run on a paid call: the budget places, each method's settlement with the processor, the facilitator and the chain, which a profile sees resumed after an await with no class frame beneath it), the runtime is workerd outside JavaScript (HTTP, storage, RPC between the Worker and the object). The last row is every workerd process's CPU counters (Miniflare's entry and asset workers included), as in (a).`,
  )
  say()
  say('| part | paid ms/request | free ms/request | paid − free | × free |')
  say('|---|---|---|---|---|')
  const rows: [string, number, number][] = [
    ['Worker (JavaScript)', bought.worker, free.worker],
    ['Worker: Durable Object stub calls (open the object, send the call)', bought.stubs, free.stubs],
    ['Durable Objects: ledger and attempt limiter (JavaScript)', bought.ledger, free.ledger],
    ['runtime outside JavaScript', bought.runtime, free.runtime],
    ['garbage collection', bought.gc, free.gc],
    ['gateway isolate, sampled total', sampled(bought), sampled(free)],
    ['workerd processes (counters)', bought.process, free.process],
  ]
  for (const [label, p, f] of rows)
    say(`| ${label} | ${fmt(p)} | ${fmt(f)} | ${fmt(p - f)} | ${f > 0 ? fmt(p / f) : '-'} |`)
  say()
  say(
    `Paid / free: ${fmt(bought.process / free.process)}× by the counters, ${fmt(sampled(bought) / sampled(free))}× sampled; the Worker's own JavaScript ${fmt(bought.worker / Math.max(free.worker, 0.001))}×; without the Durable Object parts (stub calls and the ledger, which a deployed Worker does not run in its own isolate) ${fmt((sampled(bought) - bought.stubs - bought.ledger) / sampled(free))}×. The Durable Objects' share of the paid call: ${fmt((100 * (bought.stubs + bought.ledger)) / sampled(bought), 0)}% (stub calls ${fmt(bought.stubs)} ms, ledger ${fmt(bought.ledger)} ms).`,
  )
  say(
    `A paid wallet call / a paid card call (the same route): ${fmt(byWallet.process / bought.process)}× by the counters, ${fmt(sampled(byWallet) / sampled(bought))}× sampled, the Worker's own JavaScript ${fmt(byWallet.worker / Math.max(bought.worker, 0.001))}× (wallet: Worker ${fmt(byWallet.worker)} ms, stub calls ${fmt(byWallet.stubs)} ms, Durable Objects ${fmt(byWallet.ledger)} ms, runtime ${fmt(byWallet.runtime)} ms). The wallet's Worker JavaScript against a free preview's: ${fmt(byWallet.worker / Math.max(free.worker, 0.001))}×.`,
  )
  say()
  say(
    `Durable Object calls per paid call, traced in the gateway isolate (a breakpoint that never stops on each method's first line, in order; ${calls.card.calls} card and ${calls.wallet.calls} wallet calls, each with an Idempotency-Key; the client is one IPv4 address: its own budget and its rail's account, no /48):`,
  )
  say()
  say('| call | card, before the answer | card, after | wallet, before the answer | wallet, after |')
  say('|---|---|---|---|---|')
  const names = [
    'ledger.settle',
    'ledger.claimToken',
    'limiter.reserve',
    'limiter.release',
    'limiter.spend',
    'ledger.keepAnswer',
  ]
  for (const name of names)
    say(
      `| ${name} | ${fmt(calls.card.before.get(name) ?? 0)} | ${fmt(calls.card.after.get(name) ?? 0)} | ${fmt(calls.wallet.before.get(name) ?? 0)} | ${fmt(calls.wallet.after.get(name) ?? 0)} |`,
    )
  say()
  say(
    `In sequence on the path to the answer, at most: card ${calls.card.inSequence}, wallet ${calls.wallet.inSequence} (the Worker's calls to the ledger, plus the ledger's rounds to other objects while it answers; every limiter call before an answer in one parallel round: ${calls.card.parallel && calls.wallet.parallel ? 'yes' : 'NO'}). Before #45: up to 8 (ask the ledger, reserve in up to three limiters one after another, ask again, release, keep the answer, and a wallet's authorization claim first). test/workers/round-trips.test.ts asserts the same on the real objects.`,
  )
  say()
  say(
    'Where the difference goes: the functions with the most self time per paid request, against the free one.',
  )
  say()
  say('| function | paid ms/request | free ms/request |')
  say('|---|---|---|')
  for (const [name, ms] of [...bought.functions].slice(0, 12))
    say(`| ${name.replaceAll('|', '\\|')} | ${fmt(ms, 3)} | ${fmt(free.functions.get(name) ?? 0, 3)} |`)
  say()
  say(
    `Why the rest stays: the stub calls are the Worker opening the ledger object of this challenge (one Durable Object per challenge, created on its first payment, with its own SQLite storage) and sending it the settlement (the ledger reserves the client's budget places itself); the ledger object is what makes a credential pay at most once, so every paid call has exactly one, and a free call none. Locally Miniflare runs the object in the Worker's own process, so opening it lands on the Worker's stack; deployed, the object runs in its own isolate and its CPU is not the Worker's. The ledger's own work is the record and the answer it keeps for a repeat under the same Idempotency-Key (put), which the money rules require. What is left in the Worker is the credential's parsing, the processor call (fetch), the receipt (contentDigest) and the paid payload: the Worker's own JavaScript costs ${fmt(bought.worker / Math.max(free.worker, 0.001))}× a free preview's.`,
  )
  // A fresh runtime: the service's workerd started again, both Workers' isolates with it.
  const empty = await emptyRuntimeStart()
  await service?.stopWorkers()
  await service?.startWorkers()
  const started = await cpuMs(workerdPids())
  const pids = workerdPids()
  const beforeFirst = await cpuMs(pids)
  const first = await send(await paidRequest(PAID_PATH))
  const firstPaid = (await cpuMs(pids)) - beforeFirst
  say()
  say(
    `A fresh isolate: workerd from spawn to ready with both Workers took ${fmt(started, 0)} ms CPU against ${fmt(empty, 0)} ms for an empty Worker, so the two Workers' start is about ${fmt(started - empty, 0)} ms = ${fmt((started - empty) / 1000, 3)}× Cloudflare's 1 s startup limit; the first paid call of the fresh isolate (${first.status}; the 402 before it excluded, its bundles read once) took ${fmt(firstPaid, 0)} ms = ${fmt(firstPaid / bought.process)}× a warm one. CPU counters tick every 10 ms.`,
  )
}

/** The Durable Object calls of `n` fresh paid calls on each rail, traced (bench/paid-profile.ts). */
async function callsPerPaidCall(stateDir: string, n: number) {
  const bundle = join(stateDir, 'bundles', 'rules-pricing-gateway.js')
  const lines = await bundleLines(bundle)
  const trace = async (request: () => Promise<RequestInit & { path: string }>) => {
    const inits: (RequestInit & { path: string })[] = []
    // With an Idempotency-Key, so the answer is kept for a re-send: where that call falls shows too.
    for (let i = 0; i < n; i++) {
      const init = await request()
      inits.push({
        ...init,
        headers: { ...(init.headers as Record<string, string>), 'idempotency-key': crypto.randomUUID() },
      })
    }
    return traceObjectCalls(
      `ws://127.0.0.1:${INSPECTOR_PORT}/core:user:rules-pricing-gateway`,
      bundle,
      lines,
      async () => {
        for (const init of inits) {
          const { status } = await send(init)
          if (status !== 200) throw new Error(`a paid call answered ${status}`)
        }
        // What follows the last answer (places given back, the answer kept) is traced too: let it end.
        await new Promise((resolve) => setTimeout(resolve, 500))
      },
    )
  }
  return {
    card: await trace(() => paidRequest(PAID_PATH)),
    wallet: await trace(() => paidWalletRequest(PAID_PATH)),
  }
}

/** Section (h)'s two bursts, each on a runtime restarted just before it. */
async function resendBursts(running: RunningService) {
  const fresh = async () => {
    await running.stopWorkers()
    await running.startWorkers()
    await send({ path: '/v1/fde-lessons' })
  }
  await fresh()
  const unpaid = await unpaidMemory(BASE, workerdPids)
  await fresh()
  return { unpaid, copies: await resendMemory(BASE, running.processor.url, workerdPids) }
}

/** Copies of one credential may cost at most this much more memory than as many unpaid requests. */
const RESEND_MEMORY_BOUND = 1.5

function sayResendMemory({ unpaid, copies: r }: Awaited<ReturnType<typeof resendBursts>>) {
  const ratio = (r.peakMb - r.beforeMb) / Math.max(1, unpaid.peakMb - unpaid.beforeMb)
  say()
  say(`## (h) ${r.copies} copies of one held credential released together`)
  say()
  say(
    `The first try held at the processor stand-in until all ${r.copies} copies (one credential, one Idempotency-Key, ${r.path}) are sent, then released; workerd's resident memory sampled every 5 ms while they are answered, on a runtime restarted just before.`,
  )
  say()
  say(
    '| charges | answered | identical bytes, digest, receipt | refused | workerd RSS before → peak | rise / 128 MB isolate |',
  )
  say('|---|---|---|---|---|---|')
  const refused = Object.entries(r.refused)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ')
  say(
    `| ${r.charges} | ${r.answered} of ${r.copies} (${r.bytes} bytes each) | ${r.identical ? 'yes' : 'NO'} | ${refused || 'none'} | ${fmt(r.beforeMb, 0)} → ${fmt(r.peakMb, 0)} MB | ${fmt((r.peakMb - r.beforeMb) / ISOLATE_LIMIT_MB)}× |`,
  )
  say(
    `| (the same ${r.copies} requests at once without a credential: 402s) | | | | ${fmt(unpaid.beforeMb, 0)} → ${fmt(unpaid.peakMb, 0)} MB | ${fmt((unpaid.peakMb - unpaid.beforeMb) / ISOLATE_LIMIT_MB)}× |`,
  )
  say()
  say(
    `The copies' rise / the same concurrency unpaid: ${fmt(ratio)}× (bound: ${RESEND_MEMORY_BOUND}×, ${ratio <= RESEND_MEMORY_BOUND ? 'held' : 'NOT held'}; before #36 L4 every copy was answered and rebuilt it, 2.51×). Locally one workerd process holds every isolate (gateway, ledger objects, assets, submissions), so the rise is an upper bound on any one isolate's.`,
  )
}

/** One section alone, printed, on a service of its own, without the rest of the run. */
async function sectionAlone(
  options: { inspectorPort?: number },
  run: (running: RunningService, stateDir: string) => Promise<void>,
) {
  const stateDir = await mkdtemp(join(tmpdir(), 'rpi-bench-state-'))
  try {
    const running = await startService({ port: PORT, stateDir, ...options })
    service = running
    await run(running, stateDir)
  } finally {
    await service?.stop()
    await rm(stateDir, { recursive: true, force: true })
  }
}

/** `npm run bench -- --resend`: section (h) alone. */
const resendOnly = () => sectionAlone({}, async (running) => sayResendMemory(await resendBursts(running)))

/** `npm run bench -- --paid`: section (g) alone. */
const paidOnly = () =>
  sectionAlone({ inspectorPort: INSPECTOR_PORT }, (_, stateDir) => sayPaidSplit(stateDir))

/** `npm run bench -- --reconciler`: section (f) alone. */
const reconcilerOnly = () =>
  sectionAlone({}, async (running) => sayReconcilerCost(await reconcilerCost(BASE, running.processor.url)))

// ---------------------------------------------------------------- the run

async function main() {
  await mkdir('bench', { recursive: true })
  say('# Benchmark results')
  say()
  say(
    `Run on ${new Date().toISOString().slice(0, 10)}, ${process.platform}, Node ${process.version}, local workerd through Miniflare (no dev proxy). Ratios matter; absolute times on a shared 2-core machine are noisy.`,
  )
  say()
  say(
    'Before static-first serving, batched counting and the MCP v2 SDK (Worker run for every path, a counter write per request, SDK v1): bench/results-2026-11-22.md.',
  )

  // (d) build time
  const realMs = await timeBuild('content')
  const bigDir = await content100x()
  const bigMs = await timeBuild(bigDir, { foundational: null, paid: null, playbooks: null, gates: null })
  await rm(bigDir, { recursive: true, force: true })

  // (c) bundle size
  const outdir = await mkdtemp(join(tmpdir(), 'rpi-bench-bundle-'))
  execFileSync(
    'npx',
    [
      'wrangler',
      'deploy',
      '--dry-run',
      '-c',
      'gateway/wrangler.jsonc',
      '--outdir',
      outdir,
      '--metafile',
      join(outdir, 'meta.json'),
    ],
    { env: quietEnv, stdio: 'ignore' },
  )
  const bundle = await readFile(join(outdir, 'index.js'))
  const gzip = gzipSync(bundle).byteLength
  const composition = await bundleComposition(join(outdir, 'meta.json'))
  const bundleRead = await timeBundleRead()

  const stateDir = await mkdtemp(join(tmpdir(), 'rpi-bench-state-'))
  try {
    const started = performance.now()
    service = await startService({
      port: PORT,
      stateDir,
      submissionsVars: { SUBMIT_LIMIT_PER_MINUTE: '1000000' },
      inspectorPort: INSPECTOR_PORT,
    })
    const ready = await send({ path: '/v1/catalogue' })
    if (ready.status !== 200) throw new Error(`the service answered ${ready.status} at start`)
    const readyMs = performance.now() - started
    const firstStarted = performance.now()
    await send({ path: '/v1/fde-lessons/preview' })
    const firstMs = performance.now() - firstStarted

    // (a) CPU per request
    const probes: Probe[] = [
      { label: 'static asset /agents.json (baseline)', request: async () => ({ path: '/agents.json' }) },
      { label: 'free route /v1/catalogue', request: async () => ({ path: '/v1/catalogue' }) },
      {
        label: 'free route /v1/fde-lessons/preview',
        request: async () => ({ path: '/v1/fde-lessons/preview' }),
      },
      { label: '402 challenge /v1/fde-lessons', request: async () => ({ path: '/v1/fde-lessons' }) },
      { label: 'paid, verified /v1/fde-lessons', request: () => paidRequest('/v1/fde-lessons') },
      {
        label: 'paid, verified /v1/fde-lessons?topic=metadata',
        request: () => paidRequest('/v1/fde-lessons?topic=metadata'),
      },
      {
        label: 'paid wallet (evm), verified /v1/fde-lessons?topic=metadata',
        request: () => paidWalletRequest('/v1/fde-lessons?topic=metadata'),
      },
      { label: 'MCP tools/list', request: async () => mcp('tools/list', {}) },
      {
        label: 'MCP tools/call fde_catalogue',
        request: async () => mcp('tools/call', { name: 'fde_catalogue', arguments: {} }),
      },
    ]
    const cpu: { label: string; ms: number; bytes: number; status: number }[] = []
    for (const probe of probes) cpu.push({ label: probe.label, ...(await cpuPerRequest(probe, 200)) })
    const baseline = cpu[0]?.ms || 0.01
    const free = cpu[1]?.ms || 0.01
    say()
    say('## (a) CPU per request (workerd processes, user+system, 200 sequential requests each)')
    say()
    say('| route | status | bytes | CPU ms/request | × static asset | × free route |')
    say('|---|---|---|---|---|---|')
    for (const c of cpu)
      say(
        `| ${c.label} | ${c.status} | ${c.bytes} | ${fmt(c.ms)} | ${fmt(c.ms / baseline)} | ${fmt(c.ms / free)} |`,
      )
    say()
    say(
      "CPU includes Miniflare's entry worker and the static-assets router and asset worker in front of the Worker (the same for every row) and grows with the bytes sent, so compare rows of similar size: the free preview with the one-topic paid call. Paid rows exclude the processor (a separate process) and the unpaid 402 that precedes them.",
    )

    // (b) load
    const row = (label: string) => cpu.find((c) => c.label.includes(label))?.ms ?? Number.NaN
    say()
    say(
      `Paid vs free at similar size: one-topic paid call / free preview = ${fmt(row('topic=metadata') / row('preview'))}×; 402 challenge / free preview = ${fmt(row('402 challenge') / row('preview'))}×.`,
    )
    say(
      `A paid wallet call (EIP-712 check in the Worker, the facilitator stand-in outside the count) / a paid card call, one topic each = ${fmt(row('paid wallet') / row('paid, verified /v1/fde-lessons?topic=metadata'))}×.`,
    )
    const signing = await signingCost()
    say()
    say(
      `Receipt signing (Ed25519 JWS + SHA-256 digest of a ${signing.bytes}-byte body, WebCrypto, ${signing.n} in Node): ${fmt(signing.ms, 3)} ms CPU each = ${fmt(signing.ms / row('paid, verified /v1/fde-lessons?topic=metadata'))}× the CPU of a one-topic paid call above (same V8 and BoringSSL as workerd; measured in Node because workerd's counters cannot isolate one step).`,
    )
    const counting = countingCost()
    say()
    say(
      `Counting (gateway/hit-batch.ts, ${counting.n} hits in Node): ${fmt(counting.ms * 1000, 2)} µs CPU per request = ${fmt((100 * counting.ms) / row('free route /v1/fde-lessons/preview'), 4)}% of the CPU of a free preview request above. No storage write and no subrequest per request; one batch per isolate every few seconds.`,
    )
    say()
    say('## (b) Throughput under load (undici, 16 connections, 127.0.0.1)')
    say()
    say(
      'Static asset against a free Worker route of similar size, interleaved (A B A B A B, 3 s each) so drift on a shared machine falls on both:',
    )
    say()
    const pair: [string, string][] = [
      ['static asset /agents.json', '/agents.json'],
      [
        'free Worker route /v1/fde-lessons/preview?topic=preflight',
        '/v1/fde-lessons/preview?topic=preflight',
      ],
    ]
    const sums = pair.map(() => ({ rps: 0, bytes: 0 }))
    for (let round = 0; round < 3; round++)
      for (const [i, [, path]] of pair.entries()) {
        const r = await load(path, {}, 3, 16)
        const s = sums[i] as { rps: number; bytes: number }
        s.rps += r.rps / 3
      }
    const bodies = await Promise.all(pair.map(async ([, path]) => (await fetch(`${BASE}${path}`)).text()))
    // The machine's ceiling: plain node:http answering the same static bytes, under the same load.
    const ceiling = await nodeHttpCeiling(bodies[0] ?? '')
    say('| route | bytes | requests/s (mean of 3) | × static asset | × node:http ceiling |')
    say('|---|---|---|---|---|')
    for (const [i, [label]] of pair.entries())
      say(
        `| ${label} | ${bodies[i]?.length} | ${fmt(sums[i]?.rps ?? 0, 0)} | ${fmt((sums[i]?.rps ?? 0) / (sums[0]?.rps ?? 1))} | ${fmt((sums[i]?.rps ?? 0) / ceiling)} |`,
      )
    say(
      `| node:http answering the same /agents.json bytes (the local ceiling) | ${bodies[0]?.length} | ${fmt(ceiling, 0)} | ${fmt(ceiling / (sums[0]?.rps ?? 1))} | 1.00 |`,
    )
    // Where the local cost is: the same trivial Worker in the same Miniflare, with and without an
    // assets directory (the static-assets router and asset worker then sit in front of every request).
    const bare = await trivialWorkerRps(undefined)
    const withAssets = await trivialWorkerRps(join(stateDir, 'public'))
    say(
      `| a trivial Worker (one-line fetch), no assets, same Miniflare | 5 | ${fmt(bare, 0)} | ${fmt(bare / (sums[0]?.rps ?? 1))} | ${fmt(bare / ceiling)} |`,
    )
    say(
      `| the same trivial Worker with this service's assets directory (its own route) | 5 | ${fmt(withAssets, 0)} | ${fmt(withAssets / (sums[0]?.rps ?? 1))} | ${fmt(withAssets / ceiling)} |`,
    )
    say()
    say('Every route in turn (5 s each):')
    say()
    say()
    say('| route | requests/s | p50 ms | p99 ms | errors | × static asset throughput |')
    say('|---|---|---|---|---|---|')
    const loads: [string, string, RequestInit][] = [
      ['static asset /agents.json', '/agents.json', {}],
      ['free route /v1/catalogue', '/v1/catalogue', {}],
      ['free route /v1/fde-lessons/preview?topic=preflight', '/v1/fde-lessons/preview?topic=preflight', {}],
      ['402 challenge /v1/fde-lessons', '/v1/fde-lessons', {}],
      ['MCP tools/list', '/mcp', mcp('tools/list', {})],
    ]
    let staticRps = 0
    for (const [label, path, init] of loads) {
      const r = await load(path, init, 5, 16)
      if (!staticRps) staticRps = r.rps
      say(
        `| ${label} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.errors} | ${fmt(r.rps / staticRps)} |`,
      )
    }

    say()
    say('## (c) Worker bundle and cold start')
    say()
    say('| measure | value |')
    say('|---|---|')
    say(`| gateway bundle, uncompressed | ${fmt(bundle.byteLength / 1024, 0)} KiB |`)
    say(
      `| gateway bundle, gzip | ${fmt(gzip / 1024, 1)} KiB = ${fmt(gzip / (BUNDLE_GOAL_KIB * 1024))}× the ${BUNDLE_GOAL_KIB} KiB goal (Cloudflare's limit: 64 MiB uncompressed, with a 1 s startup limit; see (g)) |`,
    )
    for (const part of composition.slice(0, 8)) {
      say(`| of which ${part.name} | ${fmt(part.bytes / 1024, 0)} KiB |`)
    }
    say(
      `| bundles read from the asset store instead (free plain, paid sealed) | ${fmt(bundleRead.bytes / 1024, 0)} KiB |`,
    )
    say(
      `| reading, unsealing and checking them, once per isolate (Node, WebCrypto, mean of ${bundleRead.runs}) | ${fmt(bundleRead.ms, 1)} ms CPU |`,
    )
    say(
      `| npm start's service from a built tree to first 200 (build, bundle, both Workers in workerd via Miniflare) | ${fmt(readyMs, 0)} ms |`,
    )
    say(`| first request to a route not yet served | ${fmt(firstMs, 1)} ms |`)

    say()
    say('## (d) Build time')
    say()
    say('| content | files | build ms | × real |')
    say('|---|---|---|---|')
    say(
      `| real content | ${(await readdir('content', { recursive: true })).length} | ${fmt(realMs, 0)} | 1.00 |`,
    )
    say(`| 100× larger (synthetic copies) | ~100× | ${fmt(bigMs, 0)} | ${fmt(bigMs / realMs)} |`)

    // (g) a paid call part by part, before (e) restarts the runtime
    await sayPaidSplit(stateDir)

    // (f) reconciler cost, before (e) restarts the runtime
    const reconciler = await reconcilerCost(BASE, service.processor.url)

    // (h) copies released together, on a fresh runtime (its memory not grown by the sections before)
    const resends = await resendBursts(service)

    // (e) aggregates at 10k and 1M
    const at: Record<string, Awaited<ReturnType<typeof aggregateLatency>>> = {}
    for (const [label, count] of [
      ['10k', 10_000],
      ['1M', 990_000],
    ] as const) {
      await seed(service, count)
      // A fresh runtime: no isolate keeps the smaller data set's aggregates in memory.
      await service.stopWorkers()
      await service.startWorkers()
      await aggregateLatency(5) // warm
      at[label] = await aggregateLatency(50)
    }
    say()
    say('## (e) Aggregates and submit at scale (50 sequential samples, through the gateway)')
    say()
    say('| stored submissions | aggregates p50 ms | aggregates p99 ms | submit p50 ms |')
    say('|---|---|---|---|')
    for (const [label, r] of Object.entries(at))
      say(`| ${label} | ${fmt(r.read, 1)} | ${fmt(r.readP99, 1)} | ${fmt(r.submit, 1)} |`)
    const k = at['10k']
    const m = at['1M']
    if (k && m)
      say(`\nRatio 1M / 10k: aggregates ${fmt(m.read / k.read)}, submit ${fmt(m.submit / k.submit)}.`)

    sayReconcilerCost(reconciler)
    sayResendMemory(resends)
  } finally {
    await service?.stop()
    await rm(stateDir, { recursive: true, force: true })
    await rm(outdir, { recursive: true, force: true })
  }
  await writeFile('bench/results.md', `${lines.join('\n')}\n`)
  console.log(`\nwrote bench/results.md (${(await stat('bench/results.md')).size} bytes)`)
}

if (process.argv.includes('--resend')) await resendOnly()
else if (process.argv.includes('--reconciler')) await reconcilerOnly()
else if (process.argv.includes('--paid')) await paidOnly()
else await main()
