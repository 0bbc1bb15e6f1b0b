/**
 * The independent tracker beside the index: for each model-API row, the re-read asks
 * `@pydantic/genai-prices` (a devDependency that ships its own price data) what it has for the
 * same model, and lists where the two disagree with both sources' dates. A disagreement tells an
 * editor which vendor page to re-read first; it never changes a price. Nothing here is copied into
 * the index: only scripts/editor/reread.ts loads this file (the report module takes its results as types).
 */
import { calcPrice, findProvider } from '@pydantic/genai-prices'
import type { PricingRow } from '../../schema/content.js'
import { MODEL_API_UNIT } from '../pricing/pricing-footing.js'

/** The tracker's provider id and model name for the model each row publishes (named in its note). */
export interface TrackerModel {
  provider: string
  model: string
}

export const TRACKER_MODELS: Readonly<Record<string, TrackerModel>> = {
  'anthropic-claude-api': { provider: 'anthropic', model: 'claude-haiku-5-5' },
  'deepseek-api': { provider: 'deepseek', model: 'deepseek-flash' },
  'fireworks-ai': { provider: 'fireworks', model: 'accounts/fireworks/models/gpt-oss-20b' },
  'perplexity-sonar-api': { provider: 'perplexity', model: 'sonar' },
  'openai-api': { provider: 'openai', model: 'gpt-6-luna' },
}

/**
 * Rows whose published model cannot be named to the tracker, with why; they stay `not-mapped`
 * until a re-read reads the model's id.
 */
export const UNNAMED_MODEL_ROWS: Readonly<Record<string, string>> = {
  'groq-api': "the stored copy of Groq's models page dropped the model ids",
}

/** What the tracker says about one model on one day. */
export interface TrackerPrices {
  /** The tracker's id for the model it matched. */
  model_id: string
  /** Every input price per 1M tokens it applies that day (time-of-day variants are several). */
  input_usd_per_mtok: number[]
  /** The pages the tracker itself names as its sources for this provider. */
  pricing_urls: string[]
}

export type TrackerLookup = (model: TrackerModel, date: string) => TrackerPrices | null

/**
 * agrees: our price is one the tracker applies that day. disagrees: it is not. not-listed: the
 * tracker has no price for the model. not-mapped: no tracker model is named for the row.
 */
export type TrackerVerdict = 'agrees' | 'disagrees' | 'not-listed' | 'not-mapped'

export interface TrackerComparison {
  id: string
  product: string
  vendor: string
  verdict: TrackerVerdict
  ours: {
    unit_price_usd: number
    read_on: string
    page_states_date: string | null
    source_url: string
  }
  tracker_model: TrackerModel | null
  tracker: TrackerPrices | null
  /** The pages the tracker names as its sources for the provider, also when it lacks the model. */
  tracker_sources: string[]
}

/** The tracker's own source pages for a provider, from its shipped data. */
export const genaiPricesSources = (provider: string): string[] =>
  findProvider({ providerId: provider })?.pricing_urls ?? []

/** The rows the tracker can speak to: model APIs priced per 1M input tokens. */
export function trackedRows(rows: readonly PricingRow[]): PricingRow[] {
  return rows.filter(
    (r) =>
      r.category === 'model-api' &&
      r.pricing_model === 'per-token' &&
      r.usage_unit === MODEL_API_UNIT &&
      r.unit_price_usd !== null,
  )
}

/**
 * The tracker's input prices for a model on a date, read from the data the package ships. The
 * package's own calcPrice picks the model and the prices in force; asking at every hour of the day
 * collects its time-of-day variants (peak and off-peak).
 */
export const genaiPricesLookup: TrackerLookup = (model, date) => {
  const prices = new Set<number>()
  let modelId: string | null = null
  for (let hour = 0; hour < 24; hour++) {
    const at = new Date(`${date}T${String(hour).padStart(2, '0')}:30:00Z`)
    const result = calcPrice({ input_tokens: 1_000_000 }, model.model, {
      providerId: model.provider,
      timestamp: at,
    })
    if (!result) continue
    modelId = result.model.id
    prices.add(round(result.input_price))
  }
  if (modelId === null) return null
  return {
    model_id: modelId,
    input_usd_per_mtok: [...prices].sort((a, b) => a - b),
    pricing_urls: findProvider({ providerId: model.provider })?.pricing_urls ?? [],
  }
}

export function compareWithTracker(
  rows: readonly PricingRow[],
  date: string,
  lookup: TrackerLookup = genaiPricesLookup,
  sources: (provider: string) => string[] = genaiPricesSources,
): TrackerComparison[] {
  const compared = trackedRows(rows).map((row): TrackerComparison => {
    const price = row.unit_price_usd as number
    const trackerModel = TRACKER_MODELS[row.id] ?? null
    const tracker = trackerModel ? lookup(trackerModel, date) : null
    const verdict: TrackerVerdict =
      trackerModel === null
        ? 'not-mapped'
        : tracker === null
          ? 'not-listed'
          : tracker.input_usd_per_mtok.includes(round(price))
            ? 'agrees'
            : 'disagrees'
    return {
      id: row.id,
      product: row.product,
      vendor: row.vendor,
      verdict,
      ours: {
        unit_price_usd: price,
        read_on: row.read_on,
        page_states_date: row.page_states_date,
        source_url: row.source_url,
      },
      tracker_model: trackerModel,
      tracker,
      tracker_sources: tracker?.pricing_urls ?? (trackerModel ? sources(trackerModel.provider) : []),
    }
  })
  return compared.sort(byPriority)
}

const VERDICT_ORDER: TrackerVerdict[] = ['disagrees', 'not-listed', 'not-mapped', 'agrees']

/** Disagreements first; among them the row read longest ago, then the widest gap, is re-read first. */
function byPriority(a: TrackerComparison, b: TrackerComparison): number {
  return (
    VERDICT_ORDER.indexOf(a.verdict) - VERDICT_ORDER.indexOf(b.verdict) ||
    a.ours.read_on.localeCompare(b.ours.read_on) ||
    gap(b) - gap(a) ||
    a.id.localeCompare(b.id)
  )
}

/** How far our price is from the nearest price the tracker applies, relative to ours. */
export function gap(c: TrackerComparison): number {
  const theirs = c.tracker?.input_usd_per_mtok ?? []
  if (theirs.length === 0 || c.ours.unit_price_usd === 0) return 0
  return Math.min(...theirs.map((t) => Math.abs(t - c.ours.unit_price_usd))) / c.ours.unit_price_usd
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6
}
