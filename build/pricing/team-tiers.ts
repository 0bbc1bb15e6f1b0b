/**
 * Tiers a team buys (content/FORMAT.md, "Tiers a team buys"): a team or business seat tier and an
 * overage rate are published only as the vendor's page writes them. The build refuses a tier price
 * not written in its quote, an overage unit that is a plan or a period, and a user allowance on an
 * entry price that its own quote does not state.
 */
import type { PricingRow } from '../../schema/content.js'
import { priceAppearsIn } from './price-in-quote.js'

export interface TierBreak {
  field: 'team_tiers' | 'overage_rates' | 'entry_basis'
  problem: string
  allowed: string
}

const PLAN_OR_PERIOD = /\b(?:plan|tier|month|monthly|year|yearly|annual)\b/i

export function tierBreaks(row: PricingRow): TierBreak[] {
  const breaks: TierBreak[] = []
  row.team_tiers.forEach((t, i) => {
    if (!priceAppearsIn(t.usd_per_seat_month, t.quote))
      breaks.push({
        field: 'team_tiers',
        problem: `team_tiers[${i}] (${t.name}): ${t.usd_per_seat_month} does not appear in its quote`,
        allowed: 'the seat price written verbatim in the tier quote',
      })
    if (t.seat_minimum !== null && !priceAppearsIn(t.seat_minimum, t.quote) && !/\bminimum\b/i.test(t.quote))
      breaks.push({
        field: 'team_tiers',
        problem: `team_tiers[${i}] (${t.name}): the seat minimum ${t.seat_minimum} is not in its quote`,
        allowed: 'a seat minimum the tier quote states',
      })
  })
  row.overage_rates.forEach((o, i) => {
    if (!priceAppearsIn(o.usd, o.quote))
      breaks.push({
        field: 'overage_rates',
        problem: `overage_rates[${i}]: ${o.usd} does not appear in its quote`,
        allowed: 'the overage price written verbatim in its quote',
      })
    if (PLAN_OR_PERIOD.test(o.unit))
      breaks.push({
        field: 'overage_rates',
        problem: `overage_rates[${i}]: "${o.unit}" is a plan or a period, not a unit of use`,
        allowed: 'a unit of use: query, minute, conversation, 1K tokens',
      })
  })
  const b = row.entry_basis
  if (b && b.users !== null) {
    const quote = b.users_quote ?? ''
    const stated = b.users === 'unlimited' ? /\bunlimited\b/i.test(quote) : priceAppearsIn(b.users, quote)
    if (b.per !== 'account' || !stated)
      breaks.push({
        field: 'entry_basis',
        problem: `entry_basis.users ${b.users} is not stated in users_quote on a price per account`,
        allowed: 'users only on a price per account, with the words that state it in users_quote',
      })
  }
  return breaks
}
