/**
 * Reconcile, never re-charge: when the processor's outcome is unknown (still running, stored 5xx,
 * processing, waiting for an action), the same credential sent again is settled by asking the
 * processor, never refused while money may have moved, and never charged twice.
 */
import { Challenge } from 'mppx'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  authorization,
  cardCredential,
  challengeFrom,
  decodeReceipt,
  get,
  hmacSecret,
  processorLedger,
  standin,
  token,
  until,
} from '../support/service.js'

const PROBLEMS = 'https://paymentauth.org/problems/'

async function problemOf(r: Response) {
  return ((await r.json()) as { type: string }).type.replace(PROBLEMS, '')
}

describe('a payment whose outcome is unknown', () => {
  it('behavior: a retry while the first charge is still running is not a refusal, and delivers once it completes', async () => {
    const path = '/v1/fde-lessons?topic=dns'
    const { challenge, spt, auth } = await cardCredential(path, 'stall')
    // The gateway gives up waiting; the processor is still working on the charge.
    const first = await get(path, auth)
    expect(first.status).toBe(503)
    expect(await problemOf(first)).toBe('internal-payment-error')
    expect(first.headers.get('retry-after')).toMatch(/^\d+$/)
    // The retry the 503 asks for reaches the processor while the first call runs: 409 key in use.
    const retry = await get(path, auth)
    expect(retry.status).toBe(503)
    expect(retry.headers.get('www-authenticate')).toBeNull()
    expect((await processorLedger()).succeeded[spt]).toBeUndefined()
    // The processor completes the first call and charges the card.
    await until(async () => (await processorLedger()).stalled.includes(spt))
    expect((await standin(`/__standin/release/${spt}`)).status).toBe(200)
    await until(async () => (await processorLedger()).succeeded[spt] !== undefined)
    const delivered = await get(path, auth)
    expect(delivered.status).toBe(200)
    const receipt = decodeReceipt(delivered.headers.get('payment-receipt'))
    expect(receipt.reference).toBe((await processorLedger()).succeeded[spt])
    expect(receipt.challengeId).toBe(challenge.id)
    // And only once; the replay is told so, with no challenge inviting a second payment.
    const replay = await get(path, auth)
    expect(replay.status).toBe(409)
    expect(replay.headers.get('www-authenticate')).toBeNull()
    expect(((await replay.json()) as { type: string }).type).toMatch(/\/payment-already-accepted$/)
  })

  it('behavior: a pending payment is delivered on retry after its challenge has expired', async () => {
    const path = '/v1/fde-playbooks'
    // A challenge of ours (signed with the service's secret) that expires soon: 10 s, or twice as
    // long each time the first call itself arrived after the expiry (a busy machine), so the test
    // does not depend on how fast the call is.
    let lifeMs = 10_000
    let expires: string
    let spt: string
    let auth: { headers: { authorization: string } }
    for (;;) {
      const issued = challengeFrom(await get(path))
      expires = new Date(Date.now() + lifeMs).toISOString()
      const challenge = Challenge.from({
        ...issued,
        expires,
        secretKey: hmacSecret(),
      } as unknown as Parameters<typeof Challenge.from>[0])
      spt = token('stall')
      auth = { headers: { authorization: authorization(challenge, { spt }) } }
      const first = await get(path, auth)
      if (first.status === 503) break
      // Expired before it arrived: refused before any charge; try again with a longer life.
      expect(await problemOf(first)).toBe('payment-expired')
      lifeMs *= 2
    }
    await until(async () => Date.now() > Date.parse(expires) + 1000)
    await standin(`/__standin/release/${spt}`)
    await until(async () => (await processorLedger()).succeeded[spt] !== undefined)
    const delivered = await get(path, auth)
    expect(delivered.status).toBe(200)
    expect(decodeReceipt(delivered.headers.get('payment-receipt')).reference).toBe(
      (await processorLedger()).succeeded[spt],
    )
  })

  it('behavior: a charge whose answer was a stored 500 is found by search and delivered', async () => {
    const path = '/v1/pricing?category=voice-agent'
    const { spt, auth } = await cardCredential(path, 'lost')
    const first = await get(path, auth)
    expect(first.status).toBe(503)
    const charged = (await processorLedger()).succeeded[spt]
    expect(charged).toMatch(/^pi_/)
    const delivered = await get(path, auth)
    expect(delivered.status).toBe(200)
    expect(decodeReceipt(delivered.headers.get('payment-receipt')).reference).toBe(charged)
  })

  it('behavior: an outage that charged nothing frees the buyer with a fresh challenge, not 503 forever', async () => {
    const path = '/v1/fde-lessons?topic=cache'
    const { challenge, spt, auth } = await cardCredential(path, 'error')
    expect((await get(path, auth)).status).toBe(503)
    // The 500 is stored under the key; search shows no intent for the challenge: nothing was charged.
    const again = await get(path, auth)
    expect(again.status).toBe(402)
    expect(await problemOf(again)).toBe('verification-failed')
    expect(challengeFrom(again).id).not.toBe(challenge.id)
    expect((await processorLedger()).succeeded[spt]).toBeUndefined()
  })

  it('behavior: a processing payment answers 503 to retry, then delivers when it settles', async () => {
    const path = '/v1/fde-preship-checklist?phase=verifying'
    const { auth } = await cardCredential(path, 'processing')
    const first = await get(path, auth)
    expect(first.status).toBe(503)
    const body = (await first.json()) as { detail: string }
    const intent = /pi_[A-Za-z0-9_]+/.exec(body.detail)?.[0]
    expect(intent).toBeDefined()
    expect((await get(path, auth)).status).toBe(503)
    await standin(`/__standin/complete/${intent}`)
    const delivered = await get(path, auth)
    expect(delivered.status).toBe(200)
    expect(decodeReceipt(delivered.headers.get('payment-receipt')).reference).toBe(intent)
  })

  it('behavior: a payment that needed an action is delivered once the action completes', async () => {
    const path = '/v1/fde-lessons?topic=deploy'
    const { auth } = await cardCredential(path, 'action')
    const first = await get(path, auth)
    expect(first.status).toBe(402)
    const body = (await first.json()) as { type: string; detail: string }
    expect(body.type).toBe(`${PROBLEMS}payment-action-required`)
    const intent = /pi_[A-Za-z0-9_]+/.exec(body.detail)?.[0]
    expect(intent).toBeDefined()
    await standin(`/__standin/complete/${intent}`)
    const delivered = await get(path, auth)
    expect(delivered.status).toBe(200)
    expect(decodeReceipt(delivered.headers.get('payment-receipt')).reference).toBe(intent)
  })
})

describe("when Stripe's search index lags behind its writes", () => {
  /** Search an hour behind, as Stripe documents it can be during an outage; restored afterwards. */
  async function withSearchLag(run: () => Promise<void>) {
    expect((await standin('/__standin/config?search_lag_ms=3600000')).status).toBe(200)
    try {
      await run()
    } finally {
      await standin('/__standin/config?search_lag_ms=0')
    }
  }

  it('behavior: a charge answered by a stored 500 is delivered on retry, never refused as uncharged', async () => {
    await withSearchLag(async () => {
      const path = '/v1/fde-lessons?topic=time'
      const { spt, auth } = await cardCredential(path, 'lost')
      expect((await get(path, auth)).status).toBe(503)
      const charged = (await processorLedger()).succeeded[spt]
      expect(charged).toMatch(/^pi_/)
      // Every retry either waits (503) or delivers that one charge: never "nothing was charged".
      const retry = await get(path, auth)
      expect(retry.status).toBe(200)
      expect(decodeReceipt(retry.headers.get('payment-receipt')).reference).toBe(charged)
      const again = await get(path, auth)
      expect(again.status).toBe(409)
      expect(((await again.json()) as { detail: string }).detail).toContain(charged)
    })
  })

  it('behavior: an outage that charged nothing is told apart by the consistent list, not by search', async () => {
    await withSearchLag(async () => {
      const path = '/v1/fde-lessons?topic=backup'
      const { spt, auth } = await cardCredential(path, 'error')
      expect((await get(path, auth)).status).toBe(503)
      const again = await get(path, auth)
      expect(again.status).toBe(402)
      expect(await problemOf(again)).toBe('verification-failed')
      expect((await processorLedger()).succeeded[spt]).toBeUndefined()
    })
  })
})

describe('on a busy processor account (20,100 other intents created after the charge)', () => {
  const path = '/v1/fde-lessons?topic=retry'
  const MINUTE = 60_000
  const HOUR = 60 * MINUTE
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
  /** Fires the gateway's Cron Trigger with its clock at `time` (local runtime only). */
  const reconcile = async (time: number) =>
    expect((await get(`/cdn-cgi/local/scheduled?time=${time}`)).status).toBe(200)
  const refundsOf = async (intent: string) => (await processorLedger()).refunds[intent] ?? []
  const withKey = (auth: { headers: { authorization: string } }, key: string) => ({
    headers: { ...auth.headers, 'idempotency-key': key },
  })

  let orphanA: { intent: string; expires: number }
  let orphanC: { intent: string; expires: number }
  let lostB: Awaited<ReturnType<typeof cardCredential>> & { key: string; intent: string }

  beforeAll(async () => {
    // A: processing, completed later, its buyer never back.
    const a = await cardCredential(path, 'processing')
    const first = await get(path, withKey(a.auth, `orph-A-${a.spt}`))
    expect(first.status).toBe(503)
    const intentA = /pi_[A-Za-z0-9_]+/.exec(
      ((await first.json()) as { detail: string }).detail,
    )?.[0] as string
    expect((await standin(`/__standin/complete/${intentA}`)).status).toBe(200)
    orphanA = { intent: intentA, expires: Date.parse(a.challenge.expires as string) }
    // B: charged, the answer lost (500 after the charge); its buyer retries below.
    const b = await cardCredential(path, 'lost')
    const key = `orph-B-${b.spt}`
    expect((await get(path, withKey(b.auth, key))).status).toBe(503)
    lostB = { ...b, key, intent: (await processorLedger()).succeeded[b.spt] as string }
    expect(lostB.intent).toMatch(/^pi_/)
    // C: charged, the answer lost, its buyer never back.
    const c = await cardCredential(path, 'lost')
    expect((await get(path, withKey(c.auth, `orph-C-${c.spt}`))).status).toBe(503)
    orphanC = {
      intent: (await processorLedger()).succeeded[c.spt] as string,
      expires: Date.parse(c.challenge.expires as string),
    }
    // Another product on the same processor account makes 20,100 payments right after.
    const seeded = await standin('/__standin/seed?count=20100&realm=other-product.example')
    expect(seeded.status).toBe(200)
  })

  it('behavior: the lost answer is delivered within a minute of retries that honour Retry-After, with no fresh challenge', async () => {
    // Search has not indexed B yet, as during an index lag: the retry cannot be answered yet.
    expect((await standin('/__standin/config?search_lag_ms=3600000')).status).toBe(200)
    let waitedS = 0
    try {
      const early = await get(path, withKey(lostB.auth, lostB.key))
      expect(early.status).toBe(503)
      expect(early.headers.get('www-authenticate')).toBeNull()
      expect(await problemOf(early.clone())).toBe('internal-payment-error')
      expect(((await early.json()) as { detail: string }).detail).toMatch(/send the same credential again/)
      const retryAfterS = Number(early.headers.get('retry-after'))
      expect(retryAfterS).toBeGreaterThan(0)
      // The index catches up while the buyer waits as told.
      expect((await standin('/__standin/config?search_lag_ms=0')).status).toBe(200)
      await sleep(retryAfterS * 1000)
      waitedS += retryAfterS
    } finally {
      await standin('/__standin/config?search_lag_ms=0')
    }
    const delivered = await get(path, withKey(lostB.auth, lostB.key))
    expect(delivered.status).toBe(200)
    expect(decodeReceipt(delivered.headers.get('payment-receipt')).reference).toBe(lostB.intent)
    expect(waitedS).toBeLessThanOrEqual(60)
    // One charge, never a second.
    expect(
      Object.values((await processorLedger()).succeeded).filter((pi) => pi === lostB.intent),
    ).toHaveLength(1)
  })

  it('behavior: the orphans are refunded once within three reconciler runs, the delivered charge never', async () => {
    // The cron's schedule (every 15 minutes), from the minute after the orphans' delivery windows close.
    const start = Math.max(orphanA.expires, orphanC.expires) + 24 * HOUR + MINUTE
    for (let run = 0; run < 3; run++) await reconcile(start + run * 15 * MINUTE)
    for (const intent of [orphanA.intent, orphanC.intent])
      expect(await refundsOf(intent), intent).toHaveLength(1)
    expect(await refundsOf(lostB.intent)).toEqual([])
    // Later runs refund nothing twice.
    await reconcile(start + 3 * 15 * MINUTE)
    for (const intent of [orphanA.intent, orphanC.intent])
      expect(await refundsOf(intent), intent).toHaveLength(1)
  })
})
