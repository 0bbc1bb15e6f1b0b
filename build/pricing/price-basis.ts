/**
 * What a price is per (content/FORMAT.md, "Like with like"): an entry price per seat or per
 * account, billed monthly or annually, with its seat minimum; a unit price as a base rate or an
 * overage rate. Two prices compare only on the same basis, and the build refuses a basis the row's
 * own words contradict.
 */
import type { EntryBasis, PricingRow, UnitBasis } from '../../schema/content.js'

export interface BasisBreak {
  field: 'entry_basis' | 'unit_basis'
  problem: string
  allowed: string
}

/** A unit's words that say it is bought beyond a plan's allowance. */
const OVERAGE_WORDS = /\b(?:beyond|overage|over (?:the )?limit|additional|top-ups?|refills?)\b/i

/** "per seat, monthly billing": the basis of an entry price in words (seat minimum apart). */
export function entryBasisLabel(b: Pick<EntryBasis, 'per' | 'billing'>): string {
  return `per ${b.per}, ${b.billing} billing`
}

export const UNIT_BASIS_TEXT: Record<UnitBasis, string> = {
  base: 'base rate',
  overage: 'overage rate (beyond a plan’s included usage)',
}

export function basisBreaks(row: PricingRow): BasisBreak[] {
  const breaks: BasisBreak[] = []
  if (row.entry_basis) {
    if (row.pricing_model === 'per-seat' && row.entry_basis.per !== 'seat')
      breaks.push({
        field: 'entry_basis',
        problem: 'a per-seat row whose entry price is marked per account',
        allowed: 'entry_basis.per seat on a per-seat row',
      })
    if (row.entry_basis.seat_minimum !== null && row.entry_basis.per !== 'seat')
      breaks.push({
        field: 'entry_basis',
        problem: 'a seat minimum on a price per account',
        allowed: 'seat_minimum only with per seat',
      })
  }
  if (row.unit_basis === 'base' && row.usage_unit && OVERAGE_WORDS.test(row.usage_unit))
    breaks.push({
      field: 'unit_basis',
      problem: `the unit "${row.usage_unit}" says it is bought beyond an allowance, but unit_basis is base`,
      allowed: 'unit_basis overage for a price of units beyond a plan’s included usage',
    })
  return breaks
}
