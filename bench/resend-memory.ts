/**
 * The memory of many copies of one credential released together (#36 L4): COPIES requests with one
 * credential and one Idempotency-Key, the first held at the processor stand-in until every copy is
 * sent, then released together. Counted at the stand-in and in the answers: the charges, the
 * answers (and whether their bytes, digest and receipt are identical) and the refusals. Measured:
 * the workerd processes' resident memory (VmRSS in /proc), sampled while the copies are answered,
 * against the 128 MB one deployed isolate may use. Locally one workerd process holds every isolate
 * (gateway, ledger objects, assets, submissions), so the burst's share is its rise over the
 * memory just before it.
 */
import { readFile } from 'node:fs/promises'
import { Challenge, Credential } from 'mppx'

export const COPIES = 300
/** What one Workers isolate may use on Cloudflare; past it, every request on that isolate fails. */
export const ISOLATE_LIMIT_MB = 128
const PATH = '/v1/fde-lessons'

export interface ResendMemoryRow {
  copies: number
  path: string
  bytes: number
  charges: number
  answered: number
  identical: boolean
  /** Other answers, by status. */
  refused: Record<number, number>
  beforeMb: number
  peakMb: number
}

/** Resident memory of the given processes, in MB. */
async function rssMb(pids: number[]): Promise<number> {
  let kb = 0
  for (const pid of pids) {
    try {
      const status = await readFile(`/proc/${pid}/status`, 'utf8')
      kb += Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? 0)
    } catch {
      // the process ended
    }
  }
  return kb / 1024
}

/** Resident memory while `requests` run, all at once: before and peak, in MB. */
async function sampled<T>(pids: () => number[], requests: () => Promise<T>) {
  const beforeMb = await rssMb(pids())
  let peakMb = beforeMb
  const sampler = setInterval(async () => {
    peakMb = Math.max(peakMb, await rssMb(pids()))
  }, 5)
  try {
    const result = await requests()
    return { result, beforeMb, peakMb: Math.max(peakMb, await rssMb(pids())) }
  } finally {
    clearInterval(sampler)
  }
}

/** The same number of requests at once without a credential (402s): what the concurrency alone costs. */
export async function unpaidMemory(base: string, pids: () => number[], copies = COPIES) {
  const { beforeMb, peakMb } = await sampled(pids, () =>
    Promise.all(Array.from({ length: copies }, async () => (await fetch(`${base}${PATH}`)).text())),
  )
  return { beforeMb, peakMb }
}

export async function resendMemory(
  base: string,
  processorUrl: string,
  pids: () => number[],
  copies = COPIES,
): Promise<ResendMemoryRow> {
  const ledger = async () =>
    (await (await fetch(`${processorUrl}/__standin/ledger`)).json()) as { calls: number; stalled: string[] }
  const spt = `spt_test_stall_bench_${process.pid}_${Date.now()}`
  const challenge = Challenge.fromResponse(await fetch(`${base}${PATH}`))
  const headers = {
    authorization: Credential.serialize(Credential.from({ challenge, payload: { spt } })),
    'idempotency-key': crypto.randomUUID(),
  }
  const send = async () => {
    const r = await fetch(`${base}${PATH}`, { headers })
    const body = await r.text()
    return {
      status: r.status,
      body,
      same: `${r.headers.get('payment-receipt')} ${r.headers.get('content-digest')}`,
    }
  }
  const before = await ledger()
  const {
    result: answers,
    beforeMb,
    peakMb,
  } = await sampled(pids, async () => {
    const first = send()
    while (!(await ledger()).stalled.includes(spt)) await new Promise((r) => setTimeout(r, 20))
    const rest = Array.from({ length: copies - 1 }, () => send())
    // Every copy on its way to the ledger (a bench may wait; a test may not), well inside its bound.
    await new Promise((r) => setTimeout(r, 1500))
    await fetch(`${processorUrl}/__standin/release/${spt}`, { method: 'POST' })
    return [await first, ...(await Promise.all(rest))]
  })
  const paid = answers.filter((a) => a.status === 200)
  const refused: Record<number, number> = {}
  for (const a of answers) if (a.status !== 200) refused[a.status] = (refused[a.status] ?? 0) + 1
  return {
    copies,
    path: PATH,
    bytes: paid[0]?.body.length ?? 0,
    charges: (await ledger()).calls - before.calls,
    answered: paid.length,
    identical: paid.every((a) => a.body === paid[0]?.body && a.same === paid[0]?.same),
    refused,
    beforeMb,
    peakMb,
  }
}
