/**
 * Prices as buyers compare them (content/FORMAT.md): model-API rows give input and output prices
 * per model, converted exactly per 1M tokens; per-minute voice prices say what the minute includes
 * and are compared only with like bundles, naming what is left out and why; entry prices say what
 * usage they include. Sample rows are built here; content rows are only edited in copies.
 */
import { describe, expect, it } from 'vitest'
import { spread } from '../../build/pricing/comparables.js'
import { minuteBundles } from '../../build/pricing/minute-bundles.js'
import { perMillionTokens, publishedModels } from '../../build/pricing/model-prices.js'
import { MINUTE_PARTS, PricingRow } from '../../schema/content.js'
import { buildWithRow, builtPricing, type Row } from '../support/content-copy.js'

const perTokenApi = (r: Row) => r.category === 'model-api' && r.pricing_model === 'per-token'
const voiceMinute = (r: Row) =>
  r.category === 'voice-agent' && typeof r.usage_unit === 'string' && r.usage_unit.startsWith('minute')

/** A per-minute voice row built here, with what its minute includes. */
function minuteRow(id: string, price: number, includes: Record<string, string> | null): PricingRow {
  return PricingRow.parse({
    id,
    product: id,
    vendor: 'Vendor Example',
    category: 'voice-agent',
    pricing_model: 'per-minute',
    entry_usd_month: null,
    unit_price_usd: price,
    usage_unit: 'minute',
    unit_basis: 'base',
    null_reason: null,
    sales_gated: false,
    quote: `$${price} per minute`,
    source_url: `https://vendor.example/${id}`,
    read_on: '2026-11-25',
    read_from: 'vendor-page',
    newest_because: 'The only version of the sample page.',
    minute_includes: includes && { ...includes, quotes: ['The minute includes what the sample page says.'] },
  })
}

describe('model APIs: input and output per model', () => {
  it('behavior: a price per 1K tokens converts exactly to per 1M tokens; per 1M stays as written', () => {
    expect(perMillionTokens(0.0005, 1000)).toBe(0.5)
    expect(perMillionTokens(0.000225, 1)).toBe(225)
    expect(perMillionTokens(0.1, 1_000_000)).toBe(0.1)
    const [m] = publishedModels([
      { model: 'M', role: 'cheapest', input_usd: 0.00015, output_usd: 0.0006, per_tokens: 1000, quote: 'q' },
    ])
    expect(m).toMatchObject({ input_usd_per_mtok: 0.15, output_usd_per_mtok: 0.6 })
  })

  it('error: a model-API row with one model and no reason is refused', async () => {
    const { file, message } = await buildWithRow(
      (r) => perTokenApi(r) && Array.isArray(r.models) && r.models.length >= 2,
      (r) => {
        r.models = (r.models as Row[]).filter((m) => m.role === 'cheapest')
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/models_shortfall: 1 model\(s\) listed; a model-API row lists at least 2/)
  })

  it('error: a model price not written in its quote is refused, naming the model', async () => {
    const { file, message } = await buildWithRow(perTokenApi, (r) => {
      const [first] = r.models as Row[]
      if (first) first.output_usd = 123.45
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/models: models\[0\] \(.+\): output_usd 123.45 does not appear in its quote/)
  })

  it("error: the cheapest model's input price must be the row's published unit price", async () => {
    const { file, message } = await buildWithRow(perTokenApi, (r) => {
      for (const m of r.models as Row[]) m.role = 'listed'
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/models: 0 models have role cheapest/)
  })

  it('behavior: every per-token model-API row in the paid JSON gives two models or says why not, converted exactly', async () => {
    const { pricing, html } = await builtPricing()
    const apis = pricing.rows.filter(
      (r) => r.category === 'model-api' && r.pricing_model === 'per-token' && r.unit_price_usd !== null,
    )
    expect(apis.length).toBeGreaterThanOrEqual(5)
    for (const r of apis) {
      expect(r.models.length >= 2 || r.models_shortfall !== null, r.id).toBe(true)
      const cheapest = r.models.find((m) => m.role === 'cheapest')
      expect(cheapest?.input_usd_per_mtok, r.id).toBe(r.unit_price_usd)
      for (const m of r.models) {
        expect(m.input_usd_per_mtok).toBe(perMillionTokens(m.input_usd, m.per_tokens))
        expect(m.output_usd_per_mtok).toBeGreaterThan(0)
        expect(html, `${r.id} ${m.model}`).toContain(m.model.replace(/&/g, '&amp;'))
      }
    }
  })
})

describe('like with like: what a per-minute price includes', () => {
  const all = { model: 'included', speech_in: 'included', speech_out: 'included', telephony: 'included' }
  const noPhone = { ...all, telephony: 'extra' }

  it('behavior: prices group only with the same bundle and basis; a price with an unstated part is left out, named', () => {
    const rows = [
      minuteRow('a', 0.1, all),
      minuteRow('b', 0.2, all),
      minuteRow('c', 0.05, noPhone),
      minuteRow('d', 0.01, { ...all, telephony: 'unstated' }),
    ]
    const { bundles, left_out } = minuteBundles(rows, spread)
    // Sorted by what the minute includes.
    expect(bundles).toEqual([
      {
        label: 'model, speech in and speech out included; telephony extra',
        basis: 'base rate',
        // A bundle of one is a single price, never a median.
        spread: null,
        single_price: 0.05,
        products: ['c'],
      },
      {
        label: 'model, speech in, speech out and telephony included',
        basis: 'base rate',
        spread: { n: 2, median: 0.15, min: 0.1, max: 0.2 },
        single_price: null,
        products: ['a', 'b'],
      },
    ])
    expect(left_out).toEqual([
      { product: 'd', why: "the vendor's page does not say whether the minute includes telephony" },
    ])
  })

  it('error: a per-minute voice price that does not say what its minute includes is refused', async () => {
    const { file, message } = await buildWithRow(voiceMinute, (r) => {
      delete r.minute_includes
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/minute_includes: a per-minute voice price does not say what the minute includes/)
  })

  it('error: a part marked included with no vendor words is refused', async () => {
    const { file, message } = await buildWithRow(voiceMinute, (r) => {
      r.minute_includes = { ...all, quotes: [] }
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/minute_includes.*needs the vendor's words/)
  })

  it('behavior: the voice comparables keep bundled minutes out of the pooled median and list every minute price once', async () => {
    const { pricing, html } = await builtPricing()
    const voice = pricing.comparables.find((c) => c.category === 'voice-agent')
    const perMinuteRows = pricing.rows.filter(
      (r) => r.category === 'voice-agent' && r.unit_price_usd !== null && r.usage_unit?.startsWith('minute'),
    )
    expect(perMinuteRows.length).toBeGreaterThanOrEqual(4)
    expect(voice?.unit_price_groups.some((g) => g.unit === 'minute')).toBe(false)
    const grouped = voice?.per_minute_by_bundle.flatMap((b) => b.products) ?? []
    const left = voice?.per_minute_left_out.map((l) => l.product) ?? []
    expect([...grouped, ...left].sort()).toEqual(perMinuteRows.map((r) => r.id).sort())
    for (const r of perMinuteRows) {
      const unstated = MINUTE_PARTS.filter((p) => r.minute_includes?.[p] === 'unstated')
      expect(left.includes(r.id), r.id).toBe(unstated.length > 0)
    }
    for (const l of voice?.per_minute_left_out ?? []) expect(html).toContain(l.why.replace(/'/g, '&#39;'))
    expect(html).toContain('The minute: ')
  })
})

describe('entry prices: what usage they include', () => {
  it('error: an amount written in entry_includes that its quotes do not carry is refused', async () => {
    const { file, message } = await buildWithRow(
      (r) => r.entry_includes !== undefined && r.entry_includes !== null,
      (r) => {
        ;(r.entry_includes as Row).beyond = 'extra credits cost $9.99 each'
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(
      /entry_includes: amount\(s\) \$9.99 written in entry_includes are not in its quote/,
    )
  })

  it('behavior: the page says what each entry price includes where the row records it', async () => {
    const { pricing, html } = await builtPricing()
    const withIncludes = pricing.rows.filter((r) => r.entry_includes)
    expect(withIncludes.length).toBeGreaterThanOrEqual(5)
    expect(html.match(/The entry price includes: /g)?.length).toBe(withIncludes.length)
  })
})
