/**
 * Where a paid call's CPU goes inside workerd, Worker and ledger apart: a V8 CPU profile of the
 * gateway's isolate (Miniflare's inspector) over a series of requests. Samples whose stack starts
 * in a Durable Object class (the payment ledger, the attempt limiter: the objects' own tasks) are the ledger's; other JavaScript is
 * the Worker's; `(program)` is the runtime outside JavaScript (HTTP, storage, RPC) and `(garbage
 * collector)` V8's collector. Time a request spends waiting is idle and not counted.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

export interface CpuSplit {
  /** Milliseconds per request, by part. */
  worker: number
  /** The Worker's calls on Durable Object stubs (open the object, send the call), locally in-process. */
  stubs: number
  /** The Durable Objects' own JavaScript: the payment ledger and the attempt limiter. */
  ledger: number
  runtime: number
  gc: number
  /** Self time per request of the heaviest functions (ms), Worker and ledger together. */
  functions: Map<string, number>
}

/** Where in the bundled gateway (0-based lines, as V8 counts) the Durable Object classes and the stub calls are. */
export interface BundleLines {
  /** The payment ledger's and the attempt limiter's classes: the Durable Objects' own tasks. */
  objects: [number, number][]
  /** gateway/payment/http.ts's ledgerOf: the Worker's side of each call (the limiters are the ledger's to call). */
  stubs: [number, number][]
  /** Where each line starts (characters), to place what the inspector gives as an offset. */
  lineStarts: number[]
}

export async function bundleLines(bundlePath: string): Promise<BundleLines> {
  const text = await readFile(bundlePath, 'utf8')
  const lines = text.split('\n')
  const lineStarts: number[] = []
  for (let i = 0, at = 0; i < lines.length; at += (lines[i]?.length ?? 0) + 1, i++) lineStarts.push(at)
  const at = (open: RegExp, from = 0) => {
    const i = lines.findIndex((l, n) => n >= from && open.test(l))
    if (i < 0) throw new Error(`no ${open} in ${bundlePath}`)
    return i
  }
  const block = (open: RegExp, close: RegExp): [number, number] => {
    const start = at(open)
    return [start, at(close, start + 1)]
  }
  return {
    objects: [block(/^var PaymentLedger = class /, /^};/), block(/^var AttemptLimiter = class /, /^};/)],
    stubs: [block(/^function ledgerOf\(/, /^}/)],
    lineStarts,
  }
}

/** A Chrome DevTools Protocol session over the inspector's WebSocket. */
async function session(url: string) {
  const socket = new WebSocket(url)
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true })
    socket.addEventListener('error', reject, { once: true })
  })
  let next = 1
  const pending = new Map<number, (result: unknown) => void>()
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown }
    if (message.id !== undefined) pending.get(message.id)?.(message.result)
  })
  const send = <T>(method: string, params: unknown = {}) =>
    new Promise<T>((resolve) => {
      const id = next++
      pending.set(id, resolve as (result: unknown) => void)
      socket.send(JSON.stringify({ id, method, params }))
    })
  return { send, close: () => socket.close() }
}

/** Profiles `run` (which sends `requests` requests) in the isolate at `inspectorUrl`; CPU per request. */
export async function profileRequests(
  inspectorUrl: string,
  lines: BundleLines,
  requests: number,
  run: () => Promise<void>,
): Promise<CpuSplit> {
  const cdp = await session(inspectorUrl)
  try {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 })
    await cdp.send('Profiler.start')
    await run()
    const { profile } = await cdp.send<{ profile: Profile }>('Profiler.stop')
    if (process.env.BENCH_PROFILE_DIR)
      await writeFile(
        join(process.env.BENCH_PROFILE_DIR, `${Date.now()}.cpuprofile`),
        JSON.stringify(profile),
      )
    return split(profile, lines, requests)
  } finally {
    cdp.close()
  }
}

function split(profile: Profile, lines: BundleLines, requests: number): CpuSplit {
  const within = (n: ProfileNode, ranges: [number, number][]) =>
    ranges.some(([from, to]) => n.callFrame.lineNumber >= from && n.callFrame.lineNumber <= to)
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  /** The part a sample's stack belongs to: the frame nearest the root decides. */
  const partOf = new Map<number, keyof Omit<CpuSplit, 'functions'> | 'idle'>()
  const classify = (id: number) => {
    const leaf = byId.get(id) as ProfileNode
    const name = leaf.callFrame.functionName
    if (name === '(idle)') return 'idle'
    if (name === '(program)') return 'runtime'
    if (name === '(garbage collector)') return 'gc'
    let bottom = leaf
    for (let p = parent.get(id); p !== undefined; p = parent.get(p)) {
      const node = byId.get(p) as ProfileNode
      if (node.callFrame.functionName !== '(root)') bottom = node
    }
    if (within(bottom, lines.objects)) return 'ledger'
    // Self time in the Worker's stub call is the runtime opening the object and sending the call.
    return within(leaf, lines.stubs) ? 'stubs' : 'worker'
  }
  const totals = { worker: 0, stubs: 0, ledger: 0, runtime: 0, gc: 0 }
  const functions = new Map<string, number>()
  profile.samples.forEach((id, i) => {
    const part = partOf.get(id) ?? classify(id)
    partOf.set(id, part)
    const ms = (profile.timeDeltas[i] ?? 0) / 1000
    if (part === 'idle') return
    totals[part] += ms
    const frame = (byId.get(id) as ProfileNode).callFrame
    const name = `${frame.functionName || '(anonymous)'}${part === 'ledger' || part === 'stubs' ? ` [${part}]` : ''}`
    functions.set(name, (functions.get(name) ?? 0) + ms)
  })
  const per = (ms: number) => ms / requests
  return {
    worker: per(totals.worker),
    stubs: per(totals.stubs),
    ledger: per(totals.ledger),
    runtime: per(totals.runtime),
    gc: per(totals.gc),
    functions: new Map([...functions].map(([k, v]) => [k, per(v)] as const).sort((a, b) => b[1] - a[1])),
  }
}

/** The Durable Object methods a paid call may call, by class: what `objectCalls` counts. */
const OBJECT_METHODS = {
  ledger: ['settle', 'keepAnswer', 'claimToken'],
  limiter: ['reserve', 'release', 'spend'],
} as const

/**
 * How often each Durable Object method ran per request while `run` sent `requests` requests: V8's
 * precise coverage with call counts, in the gateway's isolate (locally the objects run in it too).
 * Keys are `ledger.settle`, `limiter.reserve` and so on.
 */
export async function objectCalls(
  inspectorUrl: string,
  lines: BundleLines,
  requests: number,
  run: () => Promise<void>,
): Promise<Map<string, number>> {
  interface Coverage {
    result: { functions: { functionName: string; ranges: { startOffset: number; count: number }[] }[] }[]
  }
  const cdp = await session(inspectorUrl)
  try {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
    // Taking coverage resets its counts: what the next take reports is `run`'s alone.
    await cdp.send('Profiler.takePreciseCoverage')
    await run()
    const { result } = await cdp.send<Coverage>('Profiler.takePreciseCoverage')
    await cdp.send('Profiler.stopPreciseCoverage')
    const lineOf = (offset: number) => {
      let line = 0
      while (line + 1 < lines.lineStarts.length && (lines.lineStarts[line + 1] ?? Infinity) <= offset) line++
      return line
    }
    const [ledgerClass, limiterClass] = lines.objects
    const classOf = (line: number) =>
      ledgerClass && line >= ledgerClass[0] && line <= ledgerClass[1]
        ? 'ledger'
        : limiterClass && line >= limiterClass[0] && line <= limiterClass[1]
          ? 'limiter'
          : undefined
    const counts = new Map<string, number>()
    for (const script of result)
      for (const f of script.functions) {
        const range = f.ranges[0]
        if (!range) continue
        const kind = classOf(lineOf(range.startOffset))
        if (!kind || !(OBJECT_METHODS[kind] as readonly string[]).includes(f.functionName)) continue
        const key = `${kind}.${f.functionName}`
        counts.set(key, (counts.get(key) ?? 0) + range.count / requests)
      }
    return counts
  } finally {
    cdp.close()
  }
}
