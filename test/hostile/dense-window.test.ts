/**
 * On a busy processor account, "nothing was charged" is proven within a few retries (#36 L5): a
 * purchase whose first processor call failed before creating a payment, among 3,000 other intents
 * created around it, is read whole across the buyer's retries (each resumes the walk where the last
 * stopped), so the buyer is freed with a fresh challenge instead of 503 "not indexed yet" for a day.
 */
import { describe, expect, it } from 'vitest'
import { authorization, challengeFrom, get, processorLedger, standin, token } from '../support/service.js'

describe('a failed first call among 3,000 other intents', () => {
  it('behavior: the retries read the whole window between them and end in "nothing was charged"', async () => {
    const path = '/v1/fde-lessons?topic=retry'
    const challenge = challengeFrom(await get(path))
    const spt = token('error')
    const auth = { headers: { authorization: authorization(challenge, { spt }), 'idempotency-key': spt } }
    const now = Math.floor(Date.now() / 1000)
    // Another product's traffic on the same account, all around this purchase.
    const realm = `dense-${process.pid}.example`
    const seeded = await standin(
      `/__standin/seed?count=3000&created_gte=${now - 100}&created_lte=${now + 100}&realm=${realm}`,
    )
    expect(seeded.status).toBe(200)
    const answers: number[] = []
    try {
      expect((await get(path, auth)).status).toBe(503)
      // Each retry reads up to 1,000 intents of the window: 3,000 here, plus whatever other
      // tests left on the shared account (another file seeds 20,100), so at most 30 retries.
      for (let retry = 0; retry < 30 && answers.at(-1) !== 402; retry++) {
        const r = await get(path, auth)
        answers.push(r.status)
        // Never a guess: until the window is read whole, the buyer waits (503, no challenge).
        if (r.status === 503) expect(r.headers.get('www-authenticate')).toBeNull()
      }
    } finally {
      // That traffic leaves the account, so no later test's window is this dense.
      await standin(`/__standin/unseed?realm=${realm}`)
    }
    expect(answers.at(-1)).toBe(402)
    // More than one retry's reading: the walk resumed where the last stopped.
    expect(answers.length).toBeGreaterThan(1)
    expect((await processorLedger()).succeeded[spt]).toBeUndefined()
  })
})
