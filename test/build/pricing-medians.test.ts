/**
 * Medians over the same unit (content/FORMAT.md, "Like with like"): a category median groups only
 * prices on the same unit and basis (per seat apart from per account, monthly apart from annual
 * billing, base rates apart from overage rates), says what it grouped and what it left out, and a
 * group of one is shown as a single price. Expected groups are worked out from the rows, never typed.
 */
import { describe, expect, it } from 'vitest'
import { entryPrices, type Priced, priceGroups, unitPrices } from '../../build/pricing/comparables.js'
import { entryBasisLabel, UNIT_BASIS_TEXT } from '../../build/pricing/price-basis.js'
import { baseUnit } from '../../build/pricing/price-format.js'
import type { PriceGroup } from '../../schema/datasets.js'
import { buildWithRow, builtPricing, type Row } from '../support/content-copy.js'

const priced = (
  product: string,
  price: number,
  basis: string,
  seat_minimum: number | null = null,
): Priced => ({
  product,
  price,
  unit: 'month',
  basis,
  seat_minimum,
})

describe('groups of one unit and one basis', () => {
  it('behavior: per-seat and per-account prices form two groups, each naming the other as left out', () => {
    const seat = 'per seat, monthly billing'
    const account = 'per account, monthly billing'
    const groups = priceGroups([
      priced('copilot', 10, seat),
      priced('business', 25, seat, 2),
      priced('cursor', 20, account),
      priced('factory', 20, account),
      priced('lovable', 25, account),
    ])
    expect(groups).toEqual([
      {
        label: `USD per month, ${account}`,
        unit: 'month',
        basis: account,
        products: ['cursor', 'factory', 'lovable'],
        spread: { n: 3, median: 20, min: 20, max: 25 },
        single_price: null,
        left_out: [
          { product: 'business', basis: seat },
          { product: 'copilot', basis: seat },
        ],
        seat_minimums: [],
      },
      {
        label: `USD per month, ${seat}`,
        unit: 'month',
        basis: seat,
        products: ['business', 'copilot'],
        spread: { n: 2, median: 17.5, min: 10, max: 25 },
        single_price: null,
        left_out: [
          { product: 'cursor', basis: account },
          { product: 'factory', basis: account },
          { product: 'lovable', basis: account },
        ],
        seat_minimums: [{ product: 'business', seats: 2 }],
      },
    ])
  })

  it('behavior: a group of one is a single price with no median; monthly and annual billing never pool', () => {
    const [annual, monthly] = priceGroups([
      priced('a', 20, 'per seat, annual billing'),
      priced('b', 25, 'per seat, monthly billing'),
      priced('c', 30, 'per seat, monthly billing'),
    ])
    expect(annual).toMatchObject({ products: ['a'], spread: null, single_price: 20 })
    expect(annual?.left_out.map((l) => l.product)).toEqual(['b', 'c'])
    expect(monthly).toMatchObject({
      products: ['b', 'c'],
      spread: { n: 2, median: 27.5 },
      single_price: null,
    })
  })
})

/** Every group of a category holds only prices of its own unit and basis, worked out from the rows. */
function expectLikeWithLike(groups: readonly PriceGroup[], prices: readonly Priced[]) {
  for (const g of groups) {
    const members = prices.filter((p) => g.products.includes(p.product))
    expect(new Set(members.map((m) => `${m.unit}|${m.basis}`)).size, g.label).toBe(1)
    expect(g.left_out.map((l) => l.product).sort(), g.label).toEqual(
      prices
        .filter((p) => p.unit === g.unit && p.basis !== g.basis)
        .map((p) => p.product)
        .sort(),
    )
    expect(g.spread === null, g.label).toBe(g.products.length === 1)
  }
}

describe('the published comparables', () => {
  it('behavior: the coding-agent entry price is never one median over per-seat and per-account plans', async () => {
    const { pricing, html } = await builtPricing()
    const rows = pricing.rows.filter((r) => r.category === 'coding-agent')
    const coding = pricing.comparables.find((c) => c.category === 'coding-agent')
    const groups = coding?.entry_price_groups ?? []
    expectLikeWithLike(groups, entryPrices(rows))
    const perSeat = rows.filter((r) => r.entry_basis?.per === 'seat').map((r) => r.id)
    const perAccount = rows.filter((r) => r.entry_basis?.per === 'account').map((r) => r.id)
    expect(perSeat.length).toBeGreaterThanOrEqual(2)
    expect(perAccount.length).toBeGreaterThanOrEqual(2)
    // Today's old median ($20 over every entry price, per seat and per account alike) is no group.
    const pooled = rows.filter((r) => r.entry_usd_month !== null).length
    expect(groups.every((g) => g.products.length < pooled)).toBe(true)
    const seatGroup = groups.find((g) => g.basis === entryBasisLabel({ per: 'seat', billing: 'monthly' }))
    expect(seatGroup?.products).toEqual(expect.arrayContaining(perSeat.filter((id) => id !== undefined)))
    expect(seatGroup?.left_out.map((l) => l.product)).toEqual(expect.arrayContaining(perAccount))
    // A stated seat minimum is carried with its group and shown on the page.
    const minimums = rows.filter((r) => r.entry_basis?.seat_minimum)
    expect(minimums.length).toBeGreaterThan(0)
    for (const r of minimums)
      expect(seatGroup?.seat_minimums).toContainEqual({ product: r.id, seats: r.entry_basis?.seat_minimum })
    const section = html.slice(
      html.indexOf('<section id="coding-agent"'),
      html.indexOf('</section>', html.indexOf('<section id="coding-agent"')),
    )
    expect(section).toContain('Entry price, USD per month, per seat, monthly billing')
    expect(section).toContain('Entry price, USD per month, per account, monthly billing')
    expect(section).not.toMatch(/<dt>Entry price, USD per month<\/dt>/)
  })

  it('behavior: the support "resolution" median keeps base rates apart from overage rates', async () => {
    const { pricing } = await builtPricing()
    const rows = pricing.rows.filter((r) => r.category === 'support-agent')
    const support = pricing.comparables.find((c) => c.category === 'support-agent')
    const prices = unitPrices(rows, false)
    expectLikeWithLike(support?.unit_price_groups ?? [], prices)
    expectLikeWithLike(support?.unit_price_converted_groups ?? [], unitPrices(rows, true))
    const resolution = (support?.unit_price_groups ?? []).filter((g) => g.unit === 'resolution')
    expect(resolution.map((g) => g.basis).sort()).toEqual([UNIT_BASIS_TEXT.base, UNIT_BASIS_TEXT.overage])
    for (const g of resolution)
      expect(g.products.sort(), g.basis).toEqual(
        rows
          .filter(
            (r) =>
              baseUnit(r.usage_unit ?? '') === 'resolution' &&
              r.unit_basis !== null &&
              UNIT_BASIS_TEXT[r.unit_basis] === g.basis,
          )
          .map((r) => r.id)
          .sort(),
      )
  })

  it('behavior: every group in every category is like with like; a group of one reads as a single price on the page', async () => {
    const { pricing, html } = await builtPricing()
    let singles = 0
    for (const c of pricing.comparables) {
      const rows = pricing.rows.filter((r) => r.category === c.category)
      expectLikeWithLike(c.entry_price_groups, entryPrices(rows))
      expectLikeWithLike(c.unit_price_groups, unitPrices(rows, false))
      for (const g of [...c.entry_price_groups, ...c.unit_price_groups].filter((x) => x.spread === null)) {
        singles++
        expect(g.single_price, g.label).not.toBeNull()
      }
    }
    expect(singles).toBeGreaterThan(0)
    expect(html).toContain('single price')
    expect(html).not.toMatch(/\(1 product\)<\/dd>/)
  })
})

describe('the build refuses a basis the row contradicts', () => {
  it('error: an entry price without its basis', async () => {
    const { file, message } = await buildWithRow(
      (r) => typeof r.entry_usd_month === 'number',
      (r: Row) => {
        delete r.entry_basis
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/entry_basis: an entry price says what it is per/)
  })

  it('error: a per-seat row whose entry price is marked per account', async () => {
    const { file, message } = await buildWithRow(
      (r) => r.pricing_model === 'per-seat' && typeof r.entry_usd_month === 'number',
      (r: Row) => {
        r.entry_basis = { per: 'account', billing: 'monthly', seat_minimum: null }
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/entry_basis: a per-seat row whose entry price is marked per account/)
  })

  it('error: a unit bought beyond a plan allowance marked as a base rate', async () => {
    const { file, message } = await buildWithRow(
      (r) => typeof r.usage_unit === 'string' && /beyond/.test(r.usage_unit),
      (r: Row) => {
        r.unit_basis = 'base'
      },
    )
    expect(message).toContain(`pricing/rows/${file}`)
    expect(message).toMatch(/unit_basis: the unit ".*beyond.*" says it is bought beyond an allowance/)
  })
})
