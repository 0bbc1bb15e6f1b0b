/**
 * How prices and null reasons are written on the human page. No locale data, so the output is the
 * same on every machine.
 */
import type { PricingRow } from '../../schema/content.js'
import { NULL_REASON_TEXT } from './pricing-sources.js'

/** $5, $4.50, $0.99, $0.014, $1,000: whole dollars bare, cents always two digits, more only if set. */
export function formatUsd(value: number): string {
  const fixed = Number.isInteger(value) ? String(value) : trimZeros(value.toFixed(6))
  const [whole = '0', cents] = fixed.split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return cents === undefined ? `$${grouped}` : `$${grouped}.${cents.padEnd(2, '0')}`
}

function trimZeros(fixed: string): string {
  return fixed.replace(/0+$/, '').replace(/\.$/, '')
}

/**
 * The words a reader sees for a row with no price: "not published" and "sales call" are findings on
 * the vendor's pricing page; "price not read yet" says that page has not been read (FORMAT.md).
 */
export function nullReasonText(reason: PricingRow['null_reason']): string {
  return reason === null ? '' : NULL_REASON_TEXT[reason]
}

/**
 * The base of a unit: what is counted, without the qualifier in parentheses ("resolution" for
 * "resolution (first tier, first 50 a month)"). Prices with one base compare on one scale.
 */
export function baseUnit(unit: string): string {
  return unit.replace(/\s*\(.*\)\s*$/, '').trim()
}

/** The qualifier of a unit, the words in parentheses, or null. */
export function unitQualifier(unit: string | null): string | null {
  return unit?.match(/\((.*)\)\s*$/)?.[1] ?? null
}

/** "per resolution", "per 1M input tokens (…)": the unit a unit price is charged in. */
export function perUnit(unit: string | null): string {
  return unit ? `per ${unit}` : 'per unit'
}
