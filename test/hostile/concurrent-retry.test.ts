/**
 * A retry never invites a second payment (#30 M1): copies of a paid request with the same
 * credential and Idempotency-Key that arrive while the first is still settling wait for it and are
 * answered as repeats (same bytes, digest and receipt); where they cannot wait, 503 with
 * Retry-After; past RESENDS_PER_MINUTE re-sends, 429 too-many-resends (#36 L4). No answer to a
 * credential whose payment is settled or in flight carries a fresh challenge, with or without the key.
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

/**
 * A copy that could not wait is a 503 with Retry-After and no challenge; it is sent again, as the
 * 503 asks, until it is answered. Never a 402: nothing may invite a second payment.
 */
async function untilAnswered(first: Answer, send: () => Promise<Answer>): Promise<Answer> {
  let answer = first
  while (answer.status === 503) {
    expect(answer.challenge).toBeNull()
    expect(answer.retryAfter).toMatch(/^\d+$/)
    await new Promise((r) => setTimeout(r, 200))
    answer = await send()
  }
  expect(answer.challenge, answer.body).toBeNull()
  return answer
}

const sameAnswer = (answers: Answer[]) => {
  const [one] = answers
  for (const a of answers) {
    expect(a.status, a.body.slice(0, 300)).toBe(200)
    expect(a.body).toBe(one?.body)
    expect(a.digest).toBe(one?.digest)
    expect(a.receipt).toBe(one?.receipt)
  }
}

describe('a retry while the first try is still settling (HTTP)', () => {
  it('behavior: the same credential and key sent while the processor holds the first try get the first answer, never a fresh challenge', async () => {
    const path = '/v1/fde-preship-checklist?phase=verifying'
    const challenge = challengeFrom(await get(path))
    const spt = token('stall')
    const headers = { authorization: authorization(challenge, { spt }), 'idempotency-key': 'stall-key' }
    const send = async () => answerOf(await get(path, { headers }))
    // The first try reaches the processor, which holds it.
    const first = send()
    await until(async () => (await processorLedger()).stalled.includes(spt))
    // The client gives up on it and retries with the same credential and key.
    const retry = send()
    await standin(`/__standin/release/${spt}`)
    const answers = [await untilAnswered(await first, send), await untilAnswered(await retry, send)]
    sameAnswer(answers)
    const charged = (await processorLedger()).succeeded[spt]
    expect(decodeReceipt(answers[0]?.receipt ?? null).reference).toBe(charged)
  })

  it(`behavior: 20 identical requests at once: one charge, 1 + ${RESENDS_PER_MINUTE} identical answers (bytes, digest, receipt), the rest 429 too-many-resends`, async () => {
    const path = '/v1/fde-playbooks?topic=rollback'
    const challenge = challengeFrom(await get(path))
    const spt = token()
    const headers = {
      authorization: authorization(challenge, { spt }),
      'idempotency-key': crypto.randomUUID(),
    }
    const send = async () => answerOf(await get(path, { headers }))
    const before = (await processorLedger()).calls
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => untilAnswered(await send(), send)),
    )
    const answered = answers.filter((a) => a.status === 200)
    sameAnswer(answered)
    // The first answer and RESENDS_PER_MINUTE re-sends of it; the others wait for the next minute.
    expect(answered).toHaveLength(1 + RESENDS_PER_MINUTE)
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(429)
      expect(JSON.parse(a.body)).toMatchObject({ retryable: 'same-credential' })
    }
    expect((await processorLedger()).calls - before).toBe(1)
  })

  it('behavior: copies without the key, or with another, are refused without a challenge and told what to do', async () => {
    const path = '/v1/fde-lessons?topic=retry'
    const challenge = challengeFrom(await get(path))
    const auth = authorization(challenge, { spt: token() })
    const key = crypto.randomUUID()
    const before = (await processorLedger()).calls
    const answers = await Promise.all([
      get(path, { headers: { authorization: auth, 'idempotency-key': key } }).then(answerOf),
      ...Array.from({ length: 5 }, () => get(path, { headers: { authorization: auth } }).then(answerOf)),
      ...Array.from({ length: 5 }, () =>
        get(path, { headers: { authorization: auth, 'idempotency-key': 'other' } }).then(answerOf),
      ),
    ])
    expect((await processorLedger()).calls - before).toBe(1)
    for (const a of answers.slice(1)) {
      expect(a.challenge).toBeNull()
      // Never 429: a copy that reaches the ledger while the first is reserving its places waits on
      // it as a copy, and takes no place of its own (#45 item 4; before, 11 copies could hold all
      // 10 of a client's places and one was told to wait).
      expect([409, 503]).toContain(a.status)
      // The first request carried a key: the refusal says to send it again with that key.
      if (a.status === 409) expect(JSON.parse(a.body)).toMatchObject({ retryable: 'same-credential' })
    }
  })
})

describe('a retry while the first try is still settling (MCP)', () => {
  it(`behavior: ${RESENDS_PER_MINUTE} identical tools/call at once all get the one result and receipt`, async () => {
    const call = async (meta?: Record<string, unknown>) =>
      (await (
        await legacyToolCall({ name: 'fde_playbook', arguments: {}, ...(meta ? { _meta: meta } : {}) })
      ).json()) as { result: { isError?: boolean; _meta?: Record<string, unknown> } }
    const unpaid = await call()
    const required = unpaid.result._meta?.['org.paymentauth/payment-required'] as { challenges: unknown[] }
    const spt = token()
    const meta = {
      'org.paymentauth/credential': { challenge: required.challenges[0], payload: { spt } },
      'idempotency-key': crypto.randomUUID(),
    }
    const before = (await processorLedger()).calls
    const results = await Promise.all(
      // The first call and re-sends within the rate (the repeat below is the last of them).
      Array.from({ length: RESENDS_PER_MINUTE }, async () => {
        let answer = await call(meta)
        // A copy that could not wait names no challenge and says when to come back.
        while (answer.result.isError) {
          expect(answer.result._meta?.['org.paymentauth/payment-required']).toBeUndefined()
          const problem = answer.result._meta?.['org.paymentauth/problem'] as { status: number }
          expect(problem.status).toBe(503)
          await new Promise((r) => setTimeout(r, 200))
          answer = await call(meta)
        }
        return JSON.stringify(answer.result)
      }),
    )
    expect(new Set(results).size).toBe(1)
    expect(results[0]).toContain('org.paymentauth/receipt')
    expect((await processorLedger()).calls - before).toBe(1)
    // A paid result, first or repeated, is bound to one credential: never stored by any cache.
    const repeat = await legacyToolCall({ name: 'fde_playbook', arguments: {}, _meta: meta })
    expect(repeat.headers.get('cache-control')).toBe('private, no-store')
    expect(JSON.stringify(((await repeat.json()) as { result: unknown }).result)).toBe(results[0])
  })
})
