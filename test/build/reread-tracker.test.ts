/**
 * The independent tracker beside the index: the re-read compares the model-API rows with the price
 * data that @pydantic/genai-prices ships (no network), lists each disagreement with both sources'
 * dates, and changes nothing. Expected prices are read from the tracker itself, never typed here.
 */
import { describe, expect, it } from 'vitest'
import { renderReport } from '../../build/reread/reread.js'
import { loadPricingRows } from '../../build/reread/reread-rows.js'
import {
  compareWithTracker,
  genaiPricesLookup,
  TRACKER_MODELS,
  type TrackerLookup,
  trackedRows,
  UNNAMED_MODEL_ROWS,
} from '../../build/reread/reread-tracker.js'
import {
  TRACKER_PACKAGE,
  type TrackerRelease,
  trackerSummaryLines,
} from '../../build/reread/reread-tracker-report.js'
import { PricingRow } from '../../schema/content.js'

const DATE = '2026-11-24'
const RELEASE: TrackerRelease = { package: TRACKER_PACKAGE, version: '0.0.0-test', published: '2026-09-23' }

function modelRow(id: string, price: number, readOn: string): PricingRow {
  return PricingRow.parse({
    id,
    product: `Product ${id}`,
    vendor: 'Vendor Example',
    category: 'model-api',
    pricing_model: 'per-token',
    entry_usd_month: null,
    unit_price_usd: price,
    usage_unit: '1M input tokens',
    unit_basis: 'base',
    null_reason: null,
    sales_gated: false,
    quote: `$${price} per 1M input tokens`,
    source_url: `https://vendor.example/${id}/pricing`,
    read_on: readOn,
    read_from: 'stored-copy-of-vendor-page',
    page_states_date: 'Updated October 2026',
    newest_because: 'test row',
  })
}

/** A mapped row whose model the shipped data prices, and that price, read from the tracker. */
function shippedPrice(): { id: string; price: number } {
  for (const [id, model] of Object.entries(TRACKER_MODELS)) {
    const found = genaiPricesLookup(model, DATE)
    const price = found?.input_usd_per_mtok[0]
    if (price !== undefined && price > 0) return { id, price }
  }
  throw new Error('the tracker prices none of the mapped models')
}

describe('re-read: the independent tracker', () => {
  it('behavior: a price the tracker applies agrees; another price disagrees and shows the tracker price', () => {
    const { id, price } = shippedPrice()
    const [same] = compareWithTracker([modelRow(id, price, DATE)], DATE)
    expect(same?.verdict).toBe('agrees')
    const [other] = compareWithTracker([modelRow(id, price * 3, DATE)], DATE)
    expect(other?.verdict).toBe('disagrees')
    expect(other?.tracker?.input_usd_per_mtok).toContain(price)
    expect(other?.tracker?.pricing_urls.length).toBeGreaterThan(0)
    expect(other?.ours.unit_price_usd).toBe(price * 3)
  })

  it('behavior: disagreements come first, the row read longest ago first; unknown models are listed apart', () => {
    const [a, b] = Object.keys(TRACKER_MODELS)
    if (!a || !b) throw new Error('need two mapped rows')
    const lookup: TrackerLookup = (model) =>
      model === TRACKER_MODELS[a]
        ? { model_id: 'tracked-a', input_usd_per_mtok: [1], pricing_urls: ['https://tracker.example/a'] }
        : model === TRACKER_MODELS[b]
          ? { model_id: 'tracked-b', input_usd_per_mtok: [2], pricing_urls: [] }
          : null
    const rows = [
      modelRow(b, 9, '2026-11-20'),
      modelRow(a, 9, '2026-10-01'),
      modelRow('unmapped-api', 1, '2026-09-01'),
      modelRow(a, 1, '2026-08-01'),
    ]
    const compared = compareWithTracker(rows, DATE, lookup)
    expect(compared.map((c) => [c.id, c.verdict, c.ours.read_on])).toEqual([
      [a, 'disagrees', '2026-10-01'],
      [b, 'disagrees', '2026-11-20'],
      ['unmapped-api', 'not-mapped', '2026-09-01'],
      [a, 'agrees', '2026-08-01'],
    ])
    const listed = compareWithTracker(
      [modelRow(a, 1, DATE)],
      DATE,
      () => null,
      () => ['https://tracker.example/src'],
    )
    expect(listed[0]?.verdict).toBe('not-listed')
    // The tracker's own sources are named even when it lacks the model, so both pages can be read.
    expect(listed[0]?.tracker_sources).toEqual(['https://tracker.example/src'])
  })

  it('behavior: the report and the console name both dates and say a disagreement changes no price', () => {
    const { id, price } = shippedPrice()
    const comparisons = compareWithTracker([modelRow(id, price * 3, '2026-10-05')], DATE)
    const report = renderReport([], { date: DATE, tracker: { comparisons, release: RELEASE } })
    expect(report).toContain(`## Independent tracker: ${TRACKER_PACKAGE}`)
    expect(report).toContain('1 disagreement')
    expect(report).toContain('read 2026-10-05, page states Updated October 2026')
    expect(report).toContain(`published ${RELEASE.published}`)
    expect(report).toContain('never a reason to change a price')
    expect(report).toContain(`https://vendor.example/${id}/pricing`)
    const lines = trackerSummaryLines(comparisons, RELEASE)
    expect(lines[0]).toContain(RELEASE.version)
    expect(lines[1]).toMatch(new RegExp(`^disagrees\\s+${id}\\s+ours \\$${price * 3} \\(read 2026-10-05`))
    expect(trackerSummaryLines(comparisons, { ...RELEASE, published: null })[0]).toContain(
      'publication date not known',
    )
  })

  it('behavior: every model-API row in content is compared and has a tracker model named, unless its model has no id to name', async () => {
    const { rows } = await loadPricingRows('content')
    const tracked = trackedRows(rows)
    expect(tracked.length).toBeGreaterThan(0)
    const compared = compareWithTracker(rows, DATE)
    expect(compared.map((c) => c.id).sort()).toEqual(tracked.map((r) => r.id).sort())
    const unmapped = compared.filter((c) => c.verdict === 'not-mapped').map((c) => c.id)
    expect(unmapped.sort()).toEqual(Object.keys(UNNAMED_MODEL_ROWS).sort())
  })
})
