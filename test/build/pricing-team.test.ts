/**
 * Tiers a team buys (content/FORMAT.md): team seat tiers and overage rates as the vendor's page
 * writes them, and the buyer's question "which coding agent costs least for a 5-person team?"
 * answered by the index from its rows, naming the rows it used and the rows it left out and why.
 * Expected answers are worked out here from the rows, never typed.
 */
import { describe, expect, it } from 'vitest'
import { formatUsd } from '../../build/pricing/price-format.js'
import { TEAM_SEATS, teamCost } from '../../build/pricing/team-cost.js'
import { PricingRow } from '../../schema/content.js'
import { buildWithRow, builtPricing, type Row } from '../support/content-copy.js'

/** A coding-agent row built here with an entry price on the given basis. */
function entryRow(id: string, usd: number, basis: Record<string, unknown>, extra: Row = {}): PricingRow {
  return PricingRow.parse({
    id,
    product: id,
    vendor: 'Vendor Example',
    category: 'coding-agent',
    pricing_model: basis.per === 'seat' ? 'per-seat' : 'flat',
    entry_usd_month: usd,
    entry_basis: { billing: 'monthly', seat_minimum: null, ...basis },
    unit_price_usd: null,
    usage_unit: null,
    null_reason: null,
    sales_gated: false,
    quote: `$${usd} a month; unlimited members; up to 3 users`,
    source_url: `https://vendor.example/${id}`,
    read_on: '2026-11-27',
    read_from: 'vendor-page',
    newest_because: 'The only version of the sample page.',
    ...extra,
  })
}

/** The cheapest monthly total a team of `seats` can buy from one row, worked out here from its fields. */
function cheapestFor(r: PricingRow, seats: number): number | null {
  const totals: number[] = []
  const b = r.entry_basis
  if (r.entry_usd_month !== null && b) {
    if (b.per === 'seat') totals.push(r.entry_usd_month * Math.max(seats, b.seat_minimum ?? 1))
    else if (b.users === 'unlimited' || (typeof b.users === 'number' && b.users >= seats))
      totals.push(r.entry_usd_month)
  }
  for (const t of r.team_tiers) totals.push(t.usd_per_seat_month * Math.max(seats, t.seat_minimum ?? 1))
  return totals.length ? Math.min(...totals) : null
}

describe('what a team pays', () => {
  it('behavior: per seat times the seats (at least the minimum), per account only when its page admits the team', () => {
    const rows = [
      entryRow('seat', 10, { per: 'seat' }),
      entryRow('seat-min', 4, { per: 'seat', seat_minimum: 8 }),
      entryRow('open', 45, { per: 'account', users: 'unlimited', users_quote: 'unlimited members' }),
      entryRow('small', 5, { per: 'account', users: 3, users_quote: 'up to 3 users' }),
      entryRow('silent', 1, { per: 'account' }),
      entryRow(
        'tiered',
        100,
        { per: 'account' },
        {
          team_tiers: [{ name: 'Team', usd_per_seat_month: 9, billing: 'monthly', quote: '$9 a seat' }],
        },
      ),
    ]
    const cost = teamCost(rows, 5)
    expect(cost.options.map((o) => [o.product, o.usd_month])).toEqual([
      ['seat-min', 32],
      ['open', 45],
      ['tiered', 45],
      ['seat', 50],
    ])
    expect(cost.left_out).toEqual([
      { product: 'silent', why: 'the page read does not say how many users the plan admits' },
      { product: 'small', why: 'the plan admits 3 users, fewer than 5' },
    ])
  })

  it('behavior: the index answers "which coding agent costs least for a 5-person team?" with the rows it used', async () => {
    const { pricing, html } = await builtPricing()
    const rows = pricing.rows.filter((r) => r.category === 'coding-agent')
    const answer = pricing.comparables.find((c) => c.category === 'coding-agent')?.team_cost
    expect(answer?.seats).toBe(TEAM_SEATS)
    // Every coding row is either an option or left out with why; none is silently dropped.
    const used = new Set(answer?.options.map((o) => o.product))
    const left = new Set(answer?.left_out.map((l) => l.product))
    for (const r of rows) expect(used.has(r.id) !== left.has(r.id), r.id).toBe(true)
    expect(used.size).toBeGreaterThanOrEqual(3)
    // The cheapest option is the least any row's own fields allow, worked out here.
    const totals = rows.flatMap((r) => {
      const t = cheapestFor(r, TEAM_SEATS)
      return t === null ? [] : [{ id: r.id, t }]
    })
    const least = Math.min(...totals.map((x) => x.t))
    const [first] = answer?.options ?? []
    expect(first?.usd_month).toBe(least)
    expect(totals.filter((x) => x.t === least).map((x) => x.id)).toContain(first?.product)
    // A per-account plan whose page does not say how many users it admits is never counted as fitting.
    for (const r of rows.filter(
      (x) => x.entry_basis?.per === 'account' && x.entry_basis.users === null && !x.team_tiers.length,
    ))
      expect(left.has(r.id), r.id).toBe(true)
    // The page says the same, in the coding-agent section.
    const start = html.indexOf('<section id="coding-agent"')
    const section = html.slice(start, html.indexOf('</section>', start))
    expect(section).toContain(`A team of ${TEAM_SEATS} pays a month, cheapest first`)
    expect(section).toContain(`${first?.product} ${formatUsd(first?.usd_month as number)}`)
  })

  it('behavior: team tiers and overage rates are published where the page lists them, with their quotes on the page', async () => {
    const { pricing, html } = await builtPricing()
    const tiers = pricing.rows.filter((r) => r.team_tiers.length)
    const overage = pricing.rows.filter((r) => r.overage_rates.length)
    expect(tiers.length).toBeGreaterThanOrEqual(2)
    expect(overage.length).toBeGreaterThanOrEqual(1)
    for (const r of tiers)
      for (const t of r.team_tiers)
        expect(html, r.id).toContain(
          `${t.name}: <span class="price">${formatUsd(t.usd_per_seat_month)}</span> / seat / month`,
        )
    for (const r of overage)
      for (const o of r.overage_rates)
        expect(html, r.id).toContain(`Overage: <span class="price">${formatUsd(o.usd)}</span> per ${o.unit}`)
  })

  it("behavior: each product of the buyer's shortlist is priced, or its row says what was searched", async () => {
    const { pricing } = await builtPricing()
    const shortlist = [
      'claude-code',
      'windsurf',
      'devin',
      'replit-agent',
      'amazon-q-developer',
      'vapi',
      'retell-ai',
      'synthflow',
      'deepgram-voice-agent',
      'elevenlabs-reception-ai',
      'mistral-api',
      'openai-realtime-api',
    ]
    for (const id of shortlist) {
      const r = pricing.rows.find((x) => x.id === id)
      expect(r, id).toBeDefined()
      const priced = r?.entry_usd_month !== null || r?.unit_price_usd !== null
      if (!priced) {
        expect(r?.null_reason, id).toBe('pricing-page-not-read')
        expect(r?.note ?? '', id).toMatch(/[Ss]earched (?:again )?on 2026-11-27/)
      }
    }
  })

  it('error: a team tier price not in its quote, an overage unit that is a period, and an unstated user allowance are refused', async () => {
    const tier = await buildWithRow(
      (r) => Array.isArray(r.team_tiers) && r.team_tiers.length > 0,
      (r: Row) => {
        ;(r.team_tiers as Row[])[0] = { ...(r.team_tiers as Row[])[0], usd_per_seat_month: 31 }
      },
    )
    expect(tier.message).toContain(`pricing/rows/${tier.file}`)
    expect(tier.message).toMatch(/team_tiers: team_tiers\[0\] \(.+\): 31 does not appear in its quote/)
    const overage = await buildWithRow(
      (r) => Array.isArray(r.overage_rates) && r.overage_rates.length > 0,
      (r: Row) => {
        ;(r.overage_rates as Row[])[0] = { ...(r.overage_rates as Row[])[0], unit: 'month' }
      },
    )
    expect(overage.message).toMatch(/overage_rates: overage_rates\[0\]: "month" is a plan or a period/)
    const users = await buildWithRow(
      (r) => (r.entry_basis as Row | undefined)?.users === 'unlimited',
      (r: Row) => {
        ;(r.entry_basis as Row).users_quote = 'Workspace collaboration'
      },
    )
    expect(users.message).toMatch(/entry_basis: entry_basis.users unlimited is not stated in users_quote/)
  })
})
