/**
 * Exact unit conversions for the paid JSON's per-unit comparables: a duration into another duration
 * (an hour is 60 minutes) and a pack of N into one. A conversion is published only when the result
 * is exact to the micro-dollar; nothing is rounded into a price the vendor did not state.
 */
import type { UnitEquivalent } from '../../schema/datasets.js'
import { baseUnit, unitQualifier } from './price-format.js'

/** Durations in seconds; a price per one converts to a price per another by their ratio. */
const DURATIONS: Record<string, number> = { minute: 60, hour: 3600 }

/** "pack of 100 sessions", "top-up of 1,000 Actions": a count of one thing sold together. */
const PACK = /^(pack|top-up|bundle|refill) of ([\d,]+) (.+)$/i

const MICRO = 1_000_000

/** price × numerator / denominator, if it is a whole number of micro-dollars; otherwise null. */
function exactly(price: number, numerator: number, denominator: number): number | null {
  const micros = Math.round(price * MICRO) * numerator
  if (micros % denominator !== 0) return null
  return micros / denominator / MICRO
}

function singular(noun: string): string {
  return /[^s]s$/.test(noun) ? noun.slice(0, -1) : noun
}

function withQualifier(base: string, qualifier: string | null): string {
  return qualifier ? `${base} (${qualifier})` : base
}

/** unit_price_usd in every other unit it converts to exactly; empty for units with no conversion. */
export function exactEquivalents(price: number, usageUnit: string): UnitEquivalent[] {
  const base = baseUnit(usageUnit)
  const qualifier = unitQualifier(usageUnit)
  const seconds = DURATIONS[base]
  if (seconds !== undefined)
    return Object.entries(DURATIONS).flatMap(([other, otherSeconds]) => {
      if (other === base) return []
      const converted = exactly(price, otherSeconds, seconds)
      if (converted === null) return []
      const [small, large] = seconds < otherSeconds ? [base, other] : [other, base]
      const ratio = Math.max(seconds, otherSeconds) / Math.min(seconds, otherSeconds)
      return [
        {
          unit_price_usd: converted,
          usage_unit: withQualifier(other, qualifier),
          conversion: `1 ${large} = ${ratio} ${small}s`,
        },
      ]
    })
  const pack = base.match(PACK)
  if (pack) {
    const [, kind, count, things] = pack as unknown as [string, string, string, string]
    const n = Number(count.replace(/,/g, ''))
    const converted = n > 0 ? exactly(price, 1, n) : null
    if (converted === null) return []
    const one = singular(things)
    return [
      {
        unit_price_usd: converted,
        usage_unit: withQualifier(one, qualifier),
        conversion: `1 ${kind.toLowerCase()} of ${count} ${things} = ${count} ${things}`,
      },
    ]
  }
  return []
}

/**
 * The unit a price is compared in across rows: the smallest of its family (per minute for
 * durations, per one for packs) when the conversion is exact, else its own base unit.
 */
export function comparableUnit(price: number, usageUnit: string): { unit: string; price: number } {
  const base = baseUnit(usageUnit)
  const seconds = DURATIONS[base]
  const target =
    seconds !== undefined
      ? exactEquivalents(price, usageUnit).find(
          (e) => (DURATIONS[baseUnit(e.usage_unit)] ?? Infinity) < seconds,
        )
      : PACK.test(base)
        ? exactEquivalents(price, usageUnit)[0]
        : undefined
  return target ? { unit: baseUnit(target.usage_unit), price: target.unit_price_usd } : { unit: base, price }
}
