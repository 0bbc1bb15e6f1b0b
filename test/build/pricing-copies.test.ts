/**
 * Newest page wins (content/FORMAT.md): where more than one stored copy of a vendor page was found,
 * the row lists the copies it compared, its quote is on the copy it marks newest, and the build
 * refuses a `newest_because` that speaks of one copy, or of another number of copies, than it lists.
 * The copies compared are kept as evidence in test/fixtures/stored-pages/copies.yaml.
 */
import { readFile } from 'node:fs/promises'
import { beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { copiesNamed, copyBreaks, singleCopyClaim } from '../../build/pricing/stored-copies.js'
import { findQuote } from '../../build/reread/reread.js'
import { loadPricingRows } from '../../build/reread/reread-rows.js'
import { PricingRow } from '../../schema/content.js'
import { buildWithRow, type Row } from '../support/content-copy.js'

interface EvidenceCopy {
  address: string
  newest: boolean
  found: string
  text: string
}
interface Evidence {
  row: string
  copies: EvidenceCopy[]
}

let evidence: Evidence[] = []
let rows: PricingRow[] = []

beforeAll(async () => {
  evidence = parse(await readFile('test/fixtures/stored-pages/copies.yaml', 'utf8')) as Evidence[]
  rows = (await loadPricingRows('content')).rows
})

/** A sample row read from one of two copies, built here (never read from content/). */
function sampleRow(newest_because: string, addresses: string[]): PricingRow {
  return PricingRow.parse({
    id: 'sample-api',
    product: 'Sample API',
    vendor: 'Vendor Example',
    category: 'voice-agent',
    pricing_model: 'flat',
    entry_usd_month: 10,
    entry_basis: { per: 'account', billing: 'monthly', seat_minimum: null },
    unit_price_usd: null,
    usage_unit: null,
    null_reason: null,
    sales_gated: false,
    quote: 'Plan: $10 a month.',
    source_url: 'https://vendor.example/pricing',
    read_on: '2026-11-27',
    read_from: 'stored-copy-of-vendor-page',
    newest_because,
    copies_compared: addresses.map((address, i) => ({ address, newest: i === 0, differs: `copy ${i}` })),
  })
}

describe('the copies compared are the evidence kept', () => {
  it('behavior: each row with kept copies lists exactly those copies, newest marked the same', () => {
    expect(evidence.length).toBeGreaterThanOrEqual(3)
    for (const e of evidence) {
      const row = rows.find((r) => r.id === e.row)
      expect(row, e.row).toBeDefined()
      const listed = (row as PricingRow).copies_compared.map((c) => [c.address, c.newest]).sort()
      expect(listed, e.row).toEqual(e.copies.map((c) => [c.address, c.newest]).sort())
    }
    // And no row lists copies the evidence does not keep.
    for (const r of rows.filter((x) => x.copies_compared.length > 0))
      expect(
        evidence.map((e) => e.row),
        r.id,
      ).toContain(r.id)
  })

  it("behavior: a row's quote and model quotes are on the copy it marks newest", () => {
    for (const e of evidence) {
      const row = rows.find((r) => r.id === e.row) as PricingRow
      const newest = e.copies.find((c) => c.newest) as EvidenceCopy
      expect(newest.text.trim().length, e.row).toBeGreaterThan(0)
      for (const quote of [row.quote, ...row.models.map((m) => m.quote)])
        expect(findQuote(quote, newest.text), `${e.row}: ${quote}`).not.toBeNull()
    }
  })

  it('error: a price only an older copy shows is not on the newest copy (Groq before 2026-11-27)', () => {
    const groq = evidence.find((e) => e.row === 'groq-api') as Evidence
    const older = groq.copies.find((c) => c.address.includes('?trk=')) as EvidenceCopy
    const newest = groq.copies.find((c) => c.newest) as EvidenceCopy
    const retired = '560 | $0.05 input$0.08 output'
    expect(findQuote(retired, older.text)).toBe('exact')
    expect(findQuote(retired, newest.text)).toBeNull()
  })
})

describe('the build refuses a newest_because the copies do not bear out', () => {
  it('behavior: counts and single-copy claims are read from the wording', () => {
    expect(copiesNamed('Three stored copies of the page were compared')).toBe(3)
    expect(copiesNamed('Two stored versions: the rendered page and the markdown one')).toBe(2)
    expect(copiesNamed('The page states no date.')).toBeNull()
    expect(
      singleCopyClaim('The only stored versions of the page (a rendered copy and a markdown copy)'),
    ).toBe('The only stored versions')
    expect(singleCopyClaim('No other version was found')).toBe('No other version')
    expect(singleCopyClaim('The page states no date.')).toBeNull()
    expect(singleCopyClaim('no other stored copy exists')).toBe('no other stored copy')
  })

  it('behavior: a row naming the copy it read among the copies it lists passes', () => {
    const a = 'https://vendor.example/pricing?ref=a'
    expect(
      copyBreaks(
        sampleRow(`Two stored copies; ${a} is the newer.`, [a, 'https://vendor.example/pricing.md']),
      ),
    ).toEqual([])
  })

  it('error: one copy claimed, another count named, or the copy read not named, each refused', () => {
    const a = 'https://vendor.example/pricing?ref=a'
    const b = 'https://vendor.example/pricing.md'
    expect(copyBreaks(sampleRow(`The only stored version; ${a}.`, [a, b])).map((x) => x.problem)).toEqual([
      'newest_because says "The only stored version", but copies_compared lists 2 copies',
    ])
    expect(
      copyBreaks(sampleRow(`Three stored copies; ${a} is the newest.`, [a, b])).map((x) => x.problem),
    ).toEqual(['newest_because names 3 copies, but copies_compared lists 2'])
    expect(
      copyBreaks(sampleRow('Two stored copies; the markdown one is newer.', [a, b])).map((x) => x.field),
    ).toEqual(['newest_because'])
    expect(copyBreaks(sampleRow('One copy.', [a])).map((x) => x.field)).toEqual(['copies_compared'])
  })

  it("error: the build refuses Groq's old wording (one set of copies) against the three it compared", async () => {
    const { file, message } = await buildWithRow(
      (r) => r.id === 'groq-api',
      (r: Row) => {
        r.newest_because =
          'The only stored versions of the Supported Models page (a rendered copy and a markdown copy); neither states a date.'
      },
    )
    expect(file).toBe('groq-api.yaml')
    expect(message).toMatch(
      /newest_because: newest_because says "The only stored versions", but copies_compared lists 3 copies/,
    )
  })

  it('error: the build refuses a row that drops a copy its newest_because counts', async () => {
    const { message } = await buildWithRow(
      (r) => r.id === 'xai-voice-agent-api',
      (r: Row) => {
        r.copies_compared = (r.copies_compared as Row[]).filter((c) => c.newest === true)
      },
    )
    expect(message).toMatch(/copies_compared: one copy listed/)
    expect(message).toMatch(/pricing\/rows\/xai-voice-agent-api\.yaml/)
  })
})
