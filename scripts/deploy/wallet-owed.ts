/**
 * The operator's command for wallet payments owed back (#35 item 3): a wallet payment cannot be
 * refunded by the service (the Worker holds no key), so this lists every wallet payment that was
 * settled on the chain but never answered and can no longer be fetched, with what is owed, and
 * writes the unsigned USDC transfers that return them, to sign elsewhere with the recipient's key
 * (a hardware wallet, a Safe, `cast send`). It reads the gateway's GET /v1/operator/wallet-owed.
 *
 *   OPERATOR_TOKEN=… npm run wallet-owed -- <base-url> [--at <ISO time>] [--out transfers.json]
 *   OPERATOR_TOKEN=… npm run wallet-owed -- <base-url> --repaid <challengeId> <transaction>
 *
 * --at asks as of a later time (what will be owed then; nothing is changed). The list is read page
 * by page until the gateway has no more. --repaid records that a debt was paid back in that
 * transaction: it is never listed again. Exits 1 when the gateway refuses.
 */
import { writeFile } from 'node:fs/promises'

export interface OwedReport {
  at: string
  owed: {
    challengeId: string
    payer: string
    amount: string
    token: string
    chainId: number
    transaction: string
    deliverableUntil: string
  }[]
  unread: string[]
  /** Notes read from the chain for this report. */
  checked: number
  /** The gateway stopped at its limit: ask again (from `next` when asking as of another time). */
  more?: boolean
  next?: string
  transfers: { chainId: number; from: string; to: string; value: string; data: string; challengeId: string }[]
}

/** Every page of the list, merged: debts by challenge id, transfers once each. */
export async function fetchOwed(base: string, token: string, at?: string): Promise<OwedReport> {
  let merged: OwedReport | undefined
  let after: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = new URL('/v1/operator/wallet-owed', base)
    if (at) url.searchParams.set('at', at)
    if (after) url.searchParams.set('after', after)
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
    if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}: ${await response.text()}`)
    const report = (await response.json()) as OwedReport
    merged = merged ? mergeReports(merged, report) : report
    if (!report.more) break
    after = report.next
  }
  return merged as OwedReport
}

/** Pages asked for at most in one run (each reads up to the gateway's limit of notes). */
const MAX_PAGES = 1000

function mergeReports(a: OwedReport, b: OwedReport): OwedReport {
  const seen = new Set(a.owed.map((o) => o.challengeId))
  const fresh = b.owed.filter((o) => !seen.has(o.challengeId))
  const freshIds = new Set(fresh.map((o) => o.challengeId))
  return {
    ...b,
    owed: [...a.owed, ...fresh],
    unread: [...new Set([...a.unread, ...b.unread])],
    checked: a.checked + b.checked,
    transfers: [...a.transfers, ...b.transfers.filter((t) => freshIds.has(t.challengeId))],
  }
}

/** Records that a debt was paid back in `transaction`. */
export async function markRepaid(base: string, token: string, challengeId: string, transaction: string) {
  const url = new URL('/v1/operator/wallet-owed', base)
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ challengeId, transaction }),
  })
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as { repaid: OwedReport['owed'][number] & { repaidIn: string } }
}

/** One line per payment owed, then the total per token. */
export function describeOwed(report: OwedReport): string {
  const lines = report.owed.map(
    (o) =>
      `${o.challengeId}  ${o.payer}  ${o.amount} base units of ${o.token} on chain ${o.chainId}  paid in ${o.transaction}  answer fetchable until ${o.deliverableUntil}`,
  )
  const totals = new Map<string, bigint>()
  for (const o of report.owed)
    totals.set(`${o.chainId}:${o.token}`, (totals.get(`${o.chainId}:${o.token}`) ?? 0n) + BigInt(o.amount))
  return [
    `wallet payments owed as of ${report.at}: ${report.owed.length}`,
    ...lines,
    ...[...totals].map(([token, total]) => `total ${total} base units of ${token}`),
    ...(report.unread.length ? [`chain state unreadable, ask again later: ${report.unread.join(', ')}`] : []),
  ].join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2)
  const base = args[0]?.startsWith('--') ? undefined : args[0]
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
  const token = process.env.OPERATOR_TOKEN
  if (!base || !token) {
    console.error(
      'usage: OPERATOR_TOKEN=… npm run wallet-owed -- <base-url> [--at <ISO time>] [--out transfers.json]',
    )
    process.exit(2)
  }
  try {
    const repaid = option('--repaid')
    if (repaid) {
      const transaction = args[args.indexOf('--repaid') + 2] ?? ''
      const { repaid: debt } = await markRepaid(base, token, repaid, transaction)
      console.log(`${debt.challengeId} recorded as paid back in ${debt.repaidIn}`)
      process.exit(0)
    }
    const report = await fetchOwed(base, token, option('--at'))
    console.log(describeOwed(report))
    const out = option('--out') ?? 'wallet-transfers.json'
    await writeFile(out, `${JSON.stringify(report.transfers, null, 2)}\n`)
    console.log(
      `${report.transfers.length} unsigned transfer(s) written to ${out}; sign and send them from the recipient's wallet`,
    )
  } catch (error) {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  }
}
