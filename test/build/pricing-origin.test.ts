/**
 * The footing rule on a price's origin (content/FORMAT.md, "Price footing"): the build refuses a
 * price taken from a worked example, a calculator or a third party's copy, naming the row and the
 * rule. The fixture rows are built here or edited in a copy of the content, never in content/.
 */
import { describe, expect, it } from 'vitest'
import { originBreaks } from '../../build/pricing/price-origin.js'
import { buildWithRow, type Row } from '../support/content-copy.js'

const entryPriced = (r: Row) => typeof r.entry_usd_month === 'number'

/** A priced fixture row on the vendor's own page; each case changes one thing. */
const fixture = {
  vendor: 'Vendor Example',
  quote: 'Pro: $25/month, 100 credits.',
  source_url: 'https://vendor.example/pricing',
  entry_usd_month: 25,
  unit_price_usd: null,
}

describe('footing rule: where a price comes from', () => {
  it('error: a price taken from a worked example is refused, naming the row and the rule', async () => {
    const { file, message } = await buildWithRow(entryPriced, (r) => {
      r.quote = `You signed up for the Pro plan on January 1 for $${r.entry_usd_month}.`
    })
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(
      /quote: footing rule worked-example: the price is taken from a worked example \("You signed up"/,
    )
  })

  it('behavior: a list price on the vendor page passes; the same price inside an example does not', () => {
    expect(originBreaks(fixture)).toEqual([])
    const rules = (quote: string) => originBreaks({ ...fixture, quote }).map((b) => b.rule)
    expect(rules('Example: if you upgrade to Pro ($25/month) you pay the difference.')).toEqual([
      'worked-example',
    ])
    expect(rules("Let's say you pick Pro at $25 a month.")).toEqual(['worked-example'])
    expect(rules('If you upgrade to Pro, you’ll pay $25 for the rest of the month.')).toEqual([
      'worked-example',
    ])
  })

  it('behavior: a calculator figure is refused, by its wording or by the page it came from', () => {
    expect(originBreaks({ ...fixture, quote: 'Estimated cost: $25 per month' }).map((b) => b.rule)).toEqual([
      'calculator',
    ])
    const fromCalc = originBreaks({ ...fixture, source_url: 'https://vendor.example/pricing/calculator' })
    expect(fromCalc.map((b) => [b.rule, b.field])).toEqual([['calculator', 'source_url']])
  })

  it('behavior: a third party copy is refused; the code host reads as the vendor only for its own product', () => {
    const mirror = originBreaks({
      ...fixture,
      source_url: 'https://mirror.someone.workers.dev/host-vendor.example',
    })
    expect(mirror.map((b) => b.rule)).toEqual(['third-party'])
    const transcription = {
      ...fixture,
      source_url: 'https://raw.githubusercontent.com/someone/prices/main/plans.yml',
    }
    expect(originBreaks(transcription).map((b) => b.rule)).toEqual(['third-party'])
    const ownPage = { ...fixture, vendor: 'GitHub', source_url: 'https://github.com/features/copilot/plans' }
    expect(originBreaks(ownPage)).toEqual([])
    expect(originBreaks({ ...ownPage, vendor: 'Vendor Example' }).map((b) => b.rule)).toEqual(['third-party'])
  })

  it('behavior: a null row may quote an example (it publishes nothing from it)', () => {
    const nullRow = { ...fixture, entry_usd_month: null, quote: 'Example: you signed up for Pro at $25.' }
    expect(originBreaks(nullRow)).toEqual([])
  })
})
