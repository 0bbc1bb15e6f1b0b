/**
 * Re-sends that cost what they should (#36 L4): one payment buys its answer and a few re-sends of
 * it, not a feed. Copies of a credential sent while its first try is held at the processor take
 * that try's answer (same bytes and receipt, one charge); at most RESENDS_PER_MINUTE re-sends of one
 * payment's answer are served a minute, one at a time, and the rest are refused with 429
 * `too-many-resends`: the same credential later, never a challenge, never a charge.
 *
 * The stand-in holds the first try until the test releases it, so nothing here depends on timing.
 */
import { describe, expect, it } from 'vitest'
import { RESENDS_PER_MINUTE } from '../../schema/config.js'
import {
  type Answer,
  answerOf,
  authorization,
  challengeFrom,
  decodeReceipt,
  get,
  legacyToolCall,
  processorLedger,
  standin,
  token,
  until,
} from '../support/service.js'
import { evmChallenge, freshBuyer, settlementsFrom, walletCredential } from '../support/wallet.js'

/** A re-send refused for the rate: come back with the same credential, after a wait inside the minute. */
function expectRateRefusal(a: Answer) {
  expect(a.status, a.body.slice(0, 300)).toBe(429)
  expect(a.challenge).toBeNull()
  const body = JSON.parse(a.body) as Record<string, unknown>
  expect(body.type).toMatch(/\/too-many-resends$/)
  expect(body.retryable).toBe('same-credential')
  expect(body.detail).toMatch(/do not pay again/i)
  const wait = Number(a.retryAfter)
  expect(Number.isInteger(wait) && wait >= 1 && wait <= 60, String(a.retryAfter)).toBe(true)
}

describe('re-sends of one paid answer (HTTP)', () => {
  it(`behavior: copies of a held credential released together: one charge, one answer's bytes, ${RESENDS_PER_MINUTE} re-sends, the rest 429 too-many-resends`, async () => {
    const path = '/v1/fde-lessons?topic=retry'
    const challenge = challengeFrom(await get(path))
    const spt = token('stall')
    const headers = {
      authorization: authorization(challenge, { spt }),
      'idempotency-key': crypto.randomUUID(),
    }
    const send = async () => answerOf(await get(path, { headers }))
    const before = (await processorLedger()).calls
    const first = send()
    await until(async () => (await processorLedger()).stalled.includes(spt))
    const copies = Array.from({ length: RESENDS_PER_MINUTE + 7 }, () => send())
    await standin(`/__standin/release/${spt}`)
    const answers = [await first, ...(await Promise.all(copies))]
    const paid = answers.filter((a) => a.status === 200)
    expect(paid).toHaveLength(1 + RESENDS_PER_MINUTE)
    for (const a of paid) {
      expect(a.body).toBe(paid[0]?.body)
      expect(a.digest).toBe(paid[0]?.digest)
      expect(a.receipt).toBe(paid[0]?.receipt)
    }
    for (const a of answers.filter((x) => x.status !== 200)) expectRateRefusal(a)
    // One charge, and it is the one the receipt names.
    expect((await processorLedger()).calls - before).toBe(1)
    expect(decodeReceipt(paid[0]?.receipt ?? null).reference).toBe((await processorLedger()).succeeded[spt])
    // The minute is not over: the next re-send is refused the same way, and still charges nothing.
    expectRateRefusal(await send())
    expect((await processorLedger()).calls - before).toBe(1)
    // Without the key it is the settled credential's 409, as before: the rate changes no other answer.
    const keyless = await answerOf(await get(path, { headers: { authorization: headers.authorization } }))
    expect(keyless.status).toBe(409)
    expect(keyless.challenge).toBeNull()
  })
})

describe('re-sends of one paid answer (wallet rail)', () => {
  it(`behavior: a wallet payment's answer is re-sent ${RESENDS_PER_MINUTE} times, then 429 too-many-resends; one settlement`, async () => {
    const path = '/v1/fde-playbooks?topic=rollback'
    const buyer = freshBuyer()
    const headers = {
      authorization: await walletCredential(buyer, evmChallenge(await get(path))),
      'idempotency-key': crypto.randomUUID(),
    }
    const send = async () => answerOf(await get(path, { headers }))
    const paid = await send()
    expect(paid.status, paid.body.slice(0, 300)).toBe(200)
    for (let i = 0; i < RESENDS_PER_MINUTE; i++) {
      const again = await send()
      expect([again.status, again.body, again.receipt]).toEqual([200, paid.body, paid.receipt])
    }
    expectRateRefusal(await send())
    expect(await settlementsFrom(buyer.address)).toHaveLength(1)
  })
})

describe('re-sends of one paid answer (MCP)', () => {
  it(`behavior: ${RESENDS_PER_MINUTE} re-sends of a tool result are the same result; the next is a 429 problem in band, with no challenge`, async () => {
    const call = async (meta?: Record<string, unknown>) =>
      (await (
        await legacyToolCall({ name: 'fde_playbook', arguments: {}, ...(meta ? { _meta: meta } : {}) })
      ).json()) as {
        result: { isError?: boolean; content: { text: string }[]; _meta?: Record<string, unknown> }
      }
    const unpaid = await call()
    const required = unpaid.result._meta?.['org.paymentauth/payment-required'] as { challenges: unknown[] }
    const meta = {
      'org.paymentauth/credential': { challenge: required.challenges[0], payload: { spt: token() } },
      'idempotency-key': crypto.randomUUID(),
    }
    const before = (await processorLedger()).calls
    const paid = await call(meta)
    expect(paid.result.isError).toBeFalsy()
    for (let i = 0; i < RESENDS_PER_MINUTE; i++)
      expect(JSON.stringify((await call(meta)).result)).toBe(JSON.stringify(paid.result))
    const refused = await call(meta)
    expect(refused.result.isError).toBe(true)
    expect(refused.result._meta?.['org.paymentauth/payment-required']).toBeUndefined()
    expect(refused.result._meta?.['org.paymentauth/problem']).toMatchObject({
      status: 429,
      type: expect.stringMatching(/\/too-many-resends$/),
      retryable: 'same-credential',
      retryAfterS: expect.any(Number),
    })
    expect(refused.result.content[0]?.text).toMatch(
      /^Not sent again \(too-many-resends\): .*do not pay again/i,
    )
    expect((await processorLedger()).calls - before).toBe(1)
  })
})
