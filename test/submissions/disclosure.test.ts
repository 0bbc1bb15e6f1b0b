/**
 * What the disclosure rule says the published aggregates do not hide, reproduced as an attacker would
 * do it against the submissions Worker alone (its own D1; every read recomputes, so each read here
 * stands for one published snapshot). Exact medians and counts of a set anyone may add to give away:
 * a newcomer's exact prices and pricing model to whoever holds every other network in the category,
 * and every price in a published category to one client with enough rows. If a change hardens the
 * rule, these tests fail and the rule's text (schema/submission.ts, quoted in README) must change too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Contributions, DISCLOSURE_THRESHOLD, MAX_PRICE_USD } from '../../schema/submission.js'
import { type SubmissionsWorker, startSubmissionsWorker } from '../support/submissions-worker.js'

let worker: SubmissionsWorker

beforeAll(async () => {
  worker = await startSubmissionsWorker({
    SUBMIT_LIMIT_PER_MINUTE: '30',
    SUBMITTER_SALT: 'a-disclosure-test-salt-of-thirty-two-bytes',
    AGGREGATE_SNAPSHOT_SECONDS: '0',
  })
})

afterAll(() => worker?.stop())

interface Row {
  pricing_model: string
  entry_usd_month?: number
  unit_price_usd?: number
}

async function send(category: string, row: Row, client: string) {
  expect((await worker.submit({ category, ...row }, client)).status).toBe(202)
}

const published = async (category: string) =>
  (await worker.aggregates()).by_category[category] as Contributions['by_category'][string]

/** The attacker's own networks, one /24 each (the red team's four). */
const NETWORKS = ['203.0.113.10', '198.51.100.10', '192.0.2.10', '100.64.7.10']

/**
 * The attacker's padding: half its rows at the lowest price allowed, half at the highest, so every
 * unknown price sits between them and the median is the median of the unknown prices alone.
 */
const padding = (i: number): Row => {
  const price = i % 2 ? MAX_PRICE_USD : 0
  return { pricing_model: 'per-seat', entry_usd_month: price, unit_price_usd: price }
}

/** What the attacker reads off: published model counts less its own. */
function othersModels(models: Record<string, number>, own: readonly Row[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [model, n] of Object.entries(models)) {
    const others = n - own.filter((r) => r.pricing_model === model).length
    if (others) out[model] = others
  }
  return out
}

describe('what the disclosure rule says it does not hide', () => {
  it(`behavior: ${DISCLOSURE_THRESHOLD - 1} networks that are a quiet category's only other submitters learn a newcomer's exact prices and pricing model`, async () => {
    const category = 'support-agent'
    const own = NETWORKS.map((_, i) => padding(i))
    for (const [i, network] of NETWORKS.entries()) await send(category, own[i] as Row, network)
    // Below the threshold nothing is published: the attack waits for the newcomer.
    expect(await published(category)).toEqual({ n: own.length, entry_p50: null, unit_p50: null, models: {} })

    const newcomer = { pricing_model: 'usage-credits', entry_usd_month: 1234.56, unit_price_usd: 0.37 }
    await send(category, newcomer, '172.20.5.5')
    const after = await published(category)
    expect(after.entry_p50).toBe(newcomer.entry_usd_month)
    expect(after.unit_p50).toBe(newcomer.unit_price_usd)
    expect(othersModels(after.models, own)).toEqual({ [newcomer.pricing_model]: 1 })
  })

  it('behavior: with two newcomers in one snapshot they learn the median of the two prices and both models', async () => {
    const category = 'voice-agent'
    const own = NETWORKS.map((_, i) => padding(i))
    for (const [i, network] of NETWORKS.entries()) await send(category, own[i] as Row, network)
    const newcomers = [
      { pricing_model: 'per-minute', entry_usd_month: 300 },
      { pricing_model: 'hybrid', entry_usd_month: 500 },
    ]
    await send(category, newcomers[0] as Row, '172.20.6.5')
    await send(category, newcomers[1] as Row, '172.20.7.5')
    const after = await published(category)
    // Six prices: the median is the mean of the two middle ones, the newcomers' two.
    expect(after.entry_p50).toBe((300 + 500) / 2)
    expect(othersModels(after.models, own)).toEqual({ 'per-minute': 1, hybrid: 1 })
  })

  it('behavior: once a median is published, one client moves it with its own rows and reads every price in the category', async () => {
    const category = 'coding-agent'
    const prices = [40, 10, 50, 30, 20]
    for (const [i, entry_usd_month] of prices.entries())
      await send(category, { pricing_model: 'flat', entry_usd_month }, `172.21.${i}.5`)
    const client = '198.51.100.77' // one address, one network: not a distinct submitter more
    const read: number[] = [(await published(category)).entry_p50 as number]
    // Two rows at one extreme move the median by one place: two pairs down, then four up (past the middle).
    for (const extreme of [0, 0, MAX_PRICE_USD, MAX_PRICE_USD, MAX_PRICE_USD, MAX_PRICE_USD]) {
      await send(category, { pricing_model: 'flat', entry_usd_month: extreme }, client)
      await send(category, { pricing_model: 'flat', entry_usd_month: extreme }, client)
      read.push((await published(category)).entry_p50 as number)
    }
    expect([...new Set(read)].sort((a, b) => a - b)).toEqual([...prices].sort((a, b) => a - b))
  })
})
