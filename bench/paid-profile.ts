/**
 * Where a paid call's CPU goes inside workerd, Worker and ledger apart: a V8 CPU profile of the
 * gateway's isolate (Miniflare's inspector) over a series of requests. Samples whose stack starts
 * in a Durable Object class (the payment ledger, the attempt limiter: the objects' own tasks), or
 * in a module only the ledger runs on a paid call (its budget places, each method's settlement),
 * are the ledger's; other JavaScript is the Worker's; `(program)` is the runtime outside JavaScript
 * (HTTP, storage, RPC) and `(garbage collector)` V8's collector. Time a request spends waiting is
 * idle and not counted. Also: each paid call's Durable Object calls, traced in order through the
 * same inspector (traceObjectCalls).
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
  /**
   * Modules whose code a paid call runs only inside the ledger object: the budget places it reserves
   * and each method's settlement (the card processor's calls, the facilitator's and the chain's). A
   * profile sees their code resumed after an await with no class frame beneath it, so without these
   * ranges the objects' own work would count as the Worker's.
   */
  objectModules: [number, number][]
  /** gateway/payment/http.ts's ledgerOf: the Worker's side of each call (the limiters are the ledger's to call). */
  stubs: [number, number][]
}

export async function bundleLines(bundlePath: string): Promise<BundleLines> {
  const lines = (await readFile(bundlePath, 'utf8')).split('\n')
  const at = (open: RegExp, from = 0) => {
    const i = lines.findIndex((l, n) => n >= from && open.test(l))
    if (i < 0) throw new Error(`no ${open} in ${bundlePath}`)
    return i
  }
  const block = (open: RegExp, close: RegExp): [number, number] => {
    const start = at(open)
    return [start, at(close, start + 1)]
  }
  // esbuild heads each bundled module with a `// <path>` comment; a module runs to the next one.
  const heads = lines.flatMap((l, n) => (/^\/\/ \S+\.[cm]?[jt]s$/.test(l) ? [n] : []))
  const moduleBlock = (path: string): [number, number][] => {
    const start = lines.indexOf(`// ${path}`)
    if (start < 0) return []
    const next = heads.find((n) => n > start)
    return [[start, (next ?? lines.length) - 1]]
  }
  const objectModules = LEDGER_ONLY_MODULES.flatMap(moduleBlock)
  if (objectModules.length === 0) throw new Error(`no module of the ledger's settlement in ${bundlePath}`)
  return {
    objects: [block(/^var PaymentLedger = class /, /^};/), block(/^var AttemptLimiter = class /, /^};/)],
    objectModules,
    stubs: [block(/^function ledgerOf\(/, /^}/)],
  }
}

/** The modules only the ledger object runs on a paid call. */
const LEDGER_ONLY_MODULES = [
  'gateway/payment/attempts.ts',
  'gateway/payment/stripe/processor.ts',
  'gateway/payment/stripe/settle.ts',
  'gateway/payment/evm/settle.ts',
  'gateway/payment/evm/facilitator.ts',
  'gateway/payment/evm/chain.ts',
]

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
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: unknown }
    if (message.id !== undefined)
      pending.get(message.id)?.(message.error ? { error: message.error } : message.result)
  })
  const on = (listener: (message: unknown) => void) =>
    socket.addEventListener('message', (event) => listener(JSON.parse(String(event.data))))
  const send = <T>(method: string, params: unknown = {}) =>
    new Promise<T>((resolve) => {
      const id = next++
      pending.set(id, resolve as (result: unknown) => void)
      socket.send(JSON.stringify({ id, method, params }))
    })
  return { send, on, close: () => socket.close() }
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
    if (within(bottom, lines.objects) || within(bottom, lines.objectModules)) return 'ledger'
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

/** Where a trace marks a paid call: each Durable Object method's first line, and two points between. */
const TRACED: { name: string; within?: 'ledger' | 'limiter'; line: RegExp; next?: boolean }[] = [
  { name: 'ledger.settle', within: 'ledger', line: /^ {2}settle\(input\) \{$/, next: true },
  { name: 'ledger.keepAnswer', within: 'ledger', line: /^ {2}async keepAnswer\(/, next: true },
  { name: 'ledger.claimToken', within: 'ledger', line: /^ {2}async claimToken\(/, next: true },
  { name: 'limiter.reserve', within: 'limiter', line: /^ {2}reserve\(budgets, id, holdMs\) \{$/, next: true },
  { name: 'limiter.release', within: 'limiter', line: /^ {2}release\(id\) \{$/, next: true },
  { name: 'limiter.spend', within: 'limiter', line: /^ {2}spend\(name, b, id\) \{$/, next: true },
  // The ledger's parallel round to the limiters has ended (attempts.ts reservePlaces).
  { name: 'round-ended', line: /^\s*const held = steps\.filter\(/ },
  // The Worker returns the paid answer (gateway/index.ts).
  { name: 'answer', line: /^\s*return done\(ctx, env, req, route, "paid", response(, uncovered)?\);$/ },
]

/** What one paid call did with Durable Objects: calls before its answer and after, by name. */
export interface CallTrace {
  /** Paid calls traced. */
  calls: number
  /** Per paid call, each method's calls before the answer and after it. */
  before: Map<string, number>
  after: Map<string, number>
  /** Per paid call, the most Durable Object round trips one after another before the answer. */
  inSequence: number
  /** Whether every limiter call before an answer began before its round ended (one parallel round). */
  parallel: boolean
}

/**
 * Traces the Durable Object calls of the paid calls `run` sends, in the gateway's isolate (locally
 * the objects run in it too): a breakpoint that never stops, on each method's first line, writes
 * the call's name to the console, in order, with the end of the ledger's round to the limiters
 * and the Worker's return of each paid answer. In sequence before an answer: the Worker's calls to
 * the ledger, and the rounds of calls the ledger makes while it answers.
 */
export async function traceObjectCalls(
  inspectorUrl: string,
  bundlePath: string,
  lines: BundleLines,
  run: () => Promise<void>,
): Promise<CallTrace> {
  const source = (await readFile(bundlePath, 'utf8')).split('\n')
  const [ledgerClass, limiterClass] = lines.objects as [[number, number], [number, number]]
  const lineOf = ({ name, within, line, next }: (typeof TRACED)[number]) => {
    const [from, to] =
      within === 'ledger' ? ledgerClass : within === 'limiter' ? limiterClass : [0, source.length]
    const at = source.findIndex((l, n) => n >= from && n <= to && line.test(l))
    if (at < 0) throw new Error(`no ${name} (${line}) in ${bundlePath}`)
    return next ? at + 1 : at
  }
  const cdp = await session(inspectorUrl)
  const events: string[] = []
  const scripts: string[] = []
  // Runtime.enable replays what was logged before (an earlier trace's calls): only `run`'s count.
  let capturing = false
  cdp.on((message) => {
    const m = message as { method?: string; params?: { url?: string; args?: { value?: unknown }[] } }
    if (m.method === 'Debugger.scriptParsed' && m.params?.url) scripts.push(m.params.url)
    const args = m.method === 'Runtime.consoleAPICalled' ? (m.params?.args ?? []).map((a) => a.value) : []
    if (capturing && args[0] === '__traced') events.push(String(args[1]))
  })
  try {
    await cdp.send('Runtime.enable')
    await cdp.send('Debugger.enable')
    const url = scripts.find((u) => u.endsWith(bundlePath.split('/').pop() as string))
    if (!url) throw new Error(`the gateway bundle is not among the isolate's scripts: ${scripts.join(', ')}`)
    const breakpoints: string[] = []
    for (const point of TRACED) {
      const set = await cdp.send<{ breakpointId?: string }>('Debugger.setBreakpointByUrl', {
        url,
        lineNumber: lineOf(point),
        condition: `(console.debug('__traced', '${point.name}'), false)`,
      })
      if (set?.breakpointId) breakpoints.push(set.breakpointId)
    }
    capturing = true
    await run()
    capturing = false
    await cdp.send('Runtime.discardConsoleEntries')
    for (const breakpointId of breakpoints) await cdp.send('Debugger.removeBreakpoint', { breakpointId })
    await cdp.send('Debugger.disable')
  } finally {
    cdp.close()
  }
  if (process.env.BENCH_PROFILE_DIR)
    await writeFile(join(process.env.BENCH_PROFILE_DIR, `${Date.now()}.trace.json`), JSON.stringify(events))
  return traced(events)
}

function traced(events: string[]): CallTrace {
  const before = new Map<string, number>()
  const after = new Map<string, number>()
  const add = (map: Map<string, number>, name: string) => map.set(name, (map.get(name) ?? 0) + 1)
  let calls = 0
  let inSequence = 0
  let parallel = true
  // One paid call's path: from its settle to its answer. Releases and spends there are the last
  // call's, made after its answer; so is a keepAnswer (the Worker keeps the answer once it is sent).
  let path: string[] = []
  const AFTER = new Set(['limiter.release', 'limiter.spend', 'ledger.keepAnswer'])
  for (const event of events) {
    if (event !== 'answer') {
      if (AFTER.has(event) && !path.includes('ledger.settle')) add(after, event)
      else path.push(event)
      continue
    }
    calls++
    const worker = path.filter((e) => e === 'ledger.settle' || e === 'ledger.keepAnswer').length
    const rounds = path.filter((e) => e === 'round-ended').length
    const lastRound = path.lastIndexOf('round-ended')
    if (path.some((e, i) => e.startsWith('limiter.reserve') && i > lastRound)) parallel = false
    inSequence = Math.max(inSequence, worker + rounds)
    for (const e of path) if (e !== 'round-ended') add(before, e)
    path = []
  }
  const per = (map: Map<string, number>) => new Map([...map].map(([k, v]) => [k, v / Math.max(calls, 1)]))
  return { calls, before: per(before), after: per(after), inSequence, parallel }
}
