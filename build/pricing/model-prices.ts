/**
 * Model APIs as buyers compare them (content/FORMAT.md): each model-API row lists the input and
 * output list price of the models its page lists, at least its cheapest and its most capable (or
 * highest-priced), each price written in its own quote. The paid JSON converts each exactly to a
 * price per 1M tokens.
 */
import type { ModelPrice, PricingRow } from '../../schema/content.js'
import { priceAppearsIn } from './price-in-quote.js'

export interface ModelPriceBreak {
  field: 'models' | 'models_shortfall'
  problem: string
  allowed: string
}

/** At least this many models per model-API row, unless the row says why not. */
export const MODELS_MIN = 2

/** The published form: the prices per 1M tokens beside the prices as the page writes them. */
export interface PublishedModelPrice extends ModelPrice {
  input_usd_per_mtok: number
  output_usd_per_mtok: number
}

/** A price per `perTokens` tokens as a price per 1M tokens, exact to the micro-dollar. */
export function perMillionTokens(price: number, perTokens: number): number {
  const factor = 1_000_000 / perTokens
  return (Math.round(price * 1e6) * factor) / 1e6
}

export function publishedModels(models: readonly ModelPrice[]): PublishedModelPrice[] {
  return models.map((m) => ({
    ...m,
    input_usd_per_mtok: perMillionTokens(m.input_usd, m.per_tokens),
    output_usd_per_mtok: perMillionTokens(m.output_usd, m.per_tokens),
  }))
}

export function modelPriceBreaks(row: PricingRow): ModelPriceBreak[] {
  const breaks: ModelPriceBreak[] = []
  const perToken = row.category === 'model-api' && row.pricing_model === 'per-token'
  if (!perToken) {
    if (row.models.length > 0)
      breaks.push({
        field: 'models',
        problem: 'models are listed on a row that is not a per-token model-API row',
        allowed: 'models only on category model-api with pricing_model per-token',
      })
    return breaks
  }
  row.models.forEach((m, i) => {
    for (const side of ['input_usd', 'output_usd'] as const)
      if (!priceAppearsIn(m[side], m.quote))
        breaks.push({
          field: 'models',
          problem: `models[${i}] (${m.model}): ${side} ${m[side]} does not appear in its quote`,
          allowed: "each model price written verbatim in that model's quote",
        })
  })
  // A row whose pricing page is not read yet lists no models: there is nothing to compare.
  if (row.unit_price_usd !== null && row.models.length < MODELS_MIN && row.models_shortfall === null)
    breaks.push({
      field: 'models_shortfall',
      problem: `${row.models.length} model(s) listed; a model-API row lists at least ${MODELS_MIN} (its cheapest and its most capable)`,
      allowed: `at least ${MODELS_MIN} models, or models_shortfall saying why the page read gives fewer`,
    })
  const cheapest = row.models.filter((m) => m.role === 'cheapest')
  if (row.unit_price_usd !== null && row.models.length > 0) {
    const [first] = cheapest
    if (cheapest.length !== 1 || !first)
      breaks.push({
        field: 'models',
        problem: `${cheapest.length} models have role cheapest`,
        allowed: 'exactly one model with role cheapest, the model unit_price_usd is the input price of',
      })
    else if (perMillionTokens(first.input_usd, first.per_tokens) !== row.unit_price_usd)
      breaks.push({
        field: 'models',
        problem: `the cheapest model's input price (${perMillionTokens(first.input_usd, first.per_tokens)} per 1M tokens) is not unit_price_usd (${row.unit_price_usd})`,
        allowed: 'unit_price_usd is the input price per 1M tokens of the cheapest current model (FORMAT.md)',
      })
  }
  return breaks
}
