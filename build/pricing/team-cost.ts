/**
 * What a team of N pays a month, from the rows only (content/FORMAT.md, "Tiers a team buys"): a
 * price per seat times the seats (at least the seat minimum), a team tier the same way, and a
 * price per account where its page says the plan admits N users or more. A row whose page does
 * not say how many users its plan admits, or that is priced only per use, is left out and named
 * with why; nothing is guessed.
 */
import type { PricingRow } from '../../schema/content.js'
import type { TeamCost } from '../../schema/datasets.js'
import { formatUsd, nullReasonText, perUnit } from './price-format.js'

/** The team size the index answers for: the buyer's "5-person team". */
export const TEAM_SEATS = 5

export function teamCost(rows: readonly PricingRow[], seats: number = TEAM_SEATS): TeamCost {
  const options: TeamCost['options'] = []
  const left_out: TeamCost['left_out'] = []
  for (const r of rows) {
    const before = options.length
    const b = r.entry_basis
    if (r.entry_usd_month !== null && b) {
      if (b.per === 'seat') {
        const n = Math.max(seats, b.seat_minimum ?? 1)
        options.push({
          product: r.id,
          plan: 'entry plan, per seat',
          usd_month: round(r.entry_usd_month * n),
          how: `${formatUsd(r.entry_usd_month)} × ${n} seats${b.seat_minimum ? ` (at least ${b.seat_minimum})` : ''}, ${b.billing} billing`,
        })
      } else if (b.users === 'unlimited' || (b.users !== null && b.users >= seats)) {
        options.push({
          product: r.id,
          plan: 'entry plan, per account',
          usd_month: r.entry_usd_month,
          how: `${formatUsd(r.entry_usd_month)} for the account, which admits ${b.users === 'unlimited' ? 'unlimited' : `up to ${b.users}`} users, ${b.billing} billing`,
        })
      }
    }
    for (const t of r.team_tiers) {
      const n = Math.max(seats, t.seat_minimum ?? 1)
      options.push({
        product: r.id,
        plan: t.name,
        usd_month: round(t.usd_per_seat_month * n),
        how: `${formatUsd(t.usd_per_seat_month)} × ${n} seats${t.seat_minimum ? ` (at least ${t.seat_minimum})` : ''}, ${t.billing} billing`,
      })
    }
    if (options.length > before) continue
    left_out.push({ product: r.id, why: whyLeftOut(r, seats) })
  }
  options.sort((a, b) => a.usd_month - b.usd_month || a.product.localeCompare(b.product))
  left_out.sort((a, b) => a.product.localeCompare(b.product))
  return { seats, options, left_out }
}

function whyLeftOut(r: PricingRow, seats: number): string {
  const b = r.entry_basis
  if (r.entry_usd_month !== null && b?.per === 'account')
    return b.users === null
      ? 'the page read does not say how many users the plan admits'
      : `the plan admits ${b.users} users, fewer than ${seats}`
  if (r.unit_price_usd !== null)
    return `priced only per use (${formatUsd(r.unit_price_usd)} ${perUnit(r.usage_unit)})`
  return nullReasonText(r.null_reason)
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
