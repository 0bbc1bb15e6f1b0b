/**
 * The operator's command for wallet payments owed back (#35 item 3): a wallet payment cannot be
 * refunded by the service (the Worker holds no key), so this lists every wallet payment that was
 * settled on the chain but never answered and can no longer be fetched, with what is owed, and
 * writes the unsigned USDC transfers that return them, to sign elsewhere with the recipient's key
 * (a hardware wallet, a Safe, `cast send`). It reads the gateway's GET /v1/operator/wallet-owed.
 *
 *   OPERATOR_TOKEN=… npm run wallet-owed -- <base-url> [--at <ISO time>] [--out transfers.json]
 *
 * --at asks as of a later time (what will be owed then). Exits 1 when the gateway refuses.
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
    transaction?: string
    deliverableUntil: string
  }[]
  unread: string[]
  transfers: { chainId: number; from: string; to: string; value: string; data: string; challengeId: string }[]
}

export async function fetchOwed(base: string, token: string, at?: string): Promise<OwedReport> {
  const url = new URL('/v1/operator/wallet-owed', base)
  if (at) url.searchParams.set('at', at)
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as OwedReport
}

/** One line per payment owed, then the total per token. */
export function describeOwed(report: OwedReport): string {
  const lines = report.owed.map(
    (o) =>
      `${o.challengeId}  ${o.payer}  ${o.amount} base units of ${o.token} on chain ${o.chainId}  paid in ${o.transaction ?? '(transaction not found by the node)'}  answer fetchable until ${o.deliverableUntil}`,
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
  const base = args.find(
    (a) => !a.startsWith('--') && !['--at', '--out'].includes(args[args.indexOf(a) - 1] ?? ''),
  )
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined)
  const token = process.env.OPERATOR_TOKEN
  if (!base || !token) {
    console.error(
      'usage: OPERATOR_TOKEN=… npm run wallet-owed -- <base-url> [--at <ISO time>] [--out transfers.json]',
    )
    process.exit(2)
  }
  try {
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
