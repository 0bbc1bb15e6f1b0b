/**
 * What the disclosure rule says the published aggregates do not hide, reproduced as an attacker would
 * do it against the submissions Worker alone (its own D1; every read recomputes, so each read here
 * stands for one published snapshot). Exact medians and counts of a set anyone may add to give away:
 * a newcomer's exact prices and pricing model to whoever holds every other network in the category,
 * and, once a category is published, the prices near the middle to whoever adds networks: one voice
 * per network, so one network reads one place either side of the middle and rows alone no further.
 * If a change hardens the rule, these tests fail and the rule's text (schema/submission.ts, quoted in
 * gateway/submissions/README.md) must change too.
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

  it('behavior: once a median is published, rows from one network move it by one voice: the prices one place from the middle, no further', async () => {
    const category = 'coding-agent'
    const prices = [40, 10, 50, 30, 20]
    for (const [i, entry_usd_month] of prices.entries())
      await send(category, { pricing_model: 'flat', entry_usd_month }, `172.21.${i}.5`)
    const sorted = [...prices].sort((a, b) => a - b)
    const middle = sorted[2] as number
    expect((await published(category)).entry_p50).toBe(middle)
    // One network's rows are one voice, the mean of its prices: rows at one extreme, then at
    // the other, and the median only ever moves between the two neighbours of the middle.
    const client = '198.51.100.77'
    const read: number[] = []
    for (const extreme of [0, 0, 0, 0, 0, 0, MAX_PRICE_USD, MAX_PRICE_USD, MAX_PRICE_USD, MAX_PRICE_USD]) {
      for (let i = 0; i < 2; i++)
        await send(category, { pricing_model: 'flat', entry_usd_month: extreme }, client)
      read.push((await published(category)).entry_p50 as number)
    }
    const below = ((sorted[1] as number) + middle) / 2
    const above = (middle + (sorted[3] as number)) / 2
    expect(Math.min(...read)).toBe(below)
    expect(Math.max(...read)).toBe(above)
    // What the rule says it gives away: knowing the middle, each half-way value names a neighbour.
    expect([2 * below - middle, 2 * above - middle]).toEqual([sorted[1], sorted[3]])
  })

  it('behavior: a network more moves the median half a place more: three read two places from the middle', async () => {
    const category = 'model-api'
    const prices = [0.4, 0.1, 0.5, 0.3, 0.2]
    for (const [i, unit_price_usd] of prices.entries())
      await send(category, { pricing_model: 'per-token', unit_price_usd }, `172.22.${i}.5`)
    for (const network of ['198.51.101.7', '198.51.102.7', '198.51.103.7'])
      await send(category, { pricing_model: 'per-token', unit_price_usd: 0 }, network)
    // Eight voices: 0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.5; the median is the mean of the two lowest prices.
    expect((await published(category)).unit_p50).toBe(Number(((0.1 + 0.2) / 2).toPrecision(12)))
  })
})
