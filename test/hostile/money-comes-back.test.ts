/**
 * The money always comes back (#22): a lost answer is sent again under its Idempotency-Key, no
 * neighbour's failures keep a buyer from a charged payment, a client is who it is and not an
 * address, a body with no length is refused as soon as it passes its cap, and every charge that was
 * never delivered and can no longer be is refunded by the scheduled reconciler, exactly once.
 */
import { connect } from 'node:net'
import { describe, expect, it, onTestFailed } from 'vitest'
import { STANDIN_SECRET } from '../../schema/config.js'
import {
  base,
  cardCredential,
  decodeReceipt,
  get,
  legacyToolCall,
  processorLedger,
  standin,
  token,
  until,
} from '../support/service.js'

const problemType = async (r: Response) => ((await r.json()) as { type: string }).type

describe('a lost answer, asked for again', () => {
  it('behavior: the same credential and Idempotency-Key get the same bytes, digest and receipt, with one charge', async () => {
    const path = '/v1/fde-lessons?topic=retry'
    const { spt, authorization: auth } = await cardCredential(path)
    const key = crypto.randomUUID()
    const first = await get(path, { headers: { authorization: auth, 'idempotency-key': `"${key}"` } })
    expect(first.status).toBe(200)
    const body = await first.text()
    const calls = (await processorLedger()).calls
    // The structured-field form and the bare form name one key.
    for (const spelling of [`"${key}"`, key]) {
      const again = await get(path, { headers: { authorization: auth, 'idempotency-key': spelling } })
      expect(again.status).toBe(200)
      expect(await again.text()).toBe(body)
      expect(again.headers.get('content-digest')).toBe(first.headers.get('content-digest'))
      expect(again.headers.get('payment-receipt')).toBe(first.headers.get('payment-receipt'))
    }
    expect((await processorLedger()).calls).toBe(calls)
    const charged = (await processorLedger()).succeeded[spt]
    expect(decodeReceipt(first.headers.get('payment-receipt')).reference).toBe(charged)
    // Without the key, or with another, the credential is refused, naming the payment and telling
    // the client to send the key it was answered under; no challenge invites a second payment.
    for (const headers of [{}, { 'idempotency-key': 'another-key' }] as Record<string, string>[]) {
      const refused = await get(path, { headers: { authorization: auth, ...headers } })
      expect(refused.status).toBe(409)
      expect(refused.headers.get('www-authenticate')).toBeNull()
      const problem = (await refused.json()) as { detail: string; retryable: unknown }
      expect(problem.detail).toContain(charged)
      expect(problem.retryable).toBe('same-credential')
    }
  })

  it('error: a malformed Idempotency-Key is a 400 naming the header, and nothing is claimed or charged', async () => {
    const path = '/v1/fde-playbooks'
    const { spt, authorization: auth } = await cardCredential(path)
    const calls = (await processorLedger()).calls
    const bad = await get(path, { headers: { authorization: auth, 'idempotency-key': 'two words' } })
    expect(bad.status).toBe(400)
    expect(bad.headers.get('www-authenticate')).toBeNull()
    const problem = (await bad.json()) as { field: string; allowed: string; retryable: unknown }
    expect(problem.field).toBe('Idempotency-Key')
    expect(problem.allowed).toMatch(/255/)
    // Whether to retry (#36): the credential is untouched, so send it again with a valid key.
    expect(problem.retryable).toBe('same-credential')
    expect((await processorLedger()).calls).toBe(calls)
    expect((await processorLedger()).succeeded[spt]).toBeUndefined()
    // The credential is still good.
    expect((await get(path, { headers: { authorization: auth } })).status).toBe(200)
  })

  it('behavior: over MCP, a repeat with the same credential and _meta idempotency-key gets the same result and receipt', async () => {
    const call = async (meta?: Record<string, unknown>) =>
      (await (
        await legacyToolCall({ name: 'fde_playbook', arguments: {}, ...(meta ? { _meta: meta } : {}) })
      ).json()) as {
        result: Record<string, unknown>
      }
    const unpaid = await call()
    const required = (unpaid.result._meta as Record<string, { challenges: unknown[] }>)[
      'org.paymentauth/payment-required'
    ]
    const credential = { challenge: required?.challenges[0], payload: { spt: token() } }
    const meta = { 'org.paymentauth/credential': credential, 'idempotency-key': crypto.randomUUID() }
    const first = await call(meta)
    expect(first.result.isError).toBeUndefined()
    const calls = (await processorLedger()).calls
    const again = await call(meta)
    expect(JSON.stringify(again.result)).toBe(JSON.stringify(first.result))
    expect((await processorLedger()).calls).toBe(calls)
    const bare = await call({ 'org.paymentauth/credential': credential })
    expect(bare.result.isError).toBe(true)
  })
})

describe('the failed-payment limiter and a buyer with money on the way', () => {
  /** A fresh challenge paid with a declining token, from `headers`' client: one fresh refusal. */
  async function decline(path: string, headers: Record<string, string>) {
    const { authorization: auth } = await cardCredential(path, 'decline', headers)
    const r = await get(path, { headers: { ...headers, authorization: auth } })
    return { status: r.status, auth, retryAfter: r.headers.get('retry-after'), body: await r.json() }
  }

  it("behavior: a replayed decline counts once, and a full failure count never holds back a neighbour's pending payment", async () => {
    const path = '/v1/fde-lessons?topic=cache'
    const neighbour = { 'cf-connecting-ip': '2001:db8:501:1::6' }
    const attacker = { 'cf-connecting-ip': '2001:db8:501:1::5' }
    // The neighbour's payment is charged but its answer is still on the way (the processor stalls).
    const pending = await cardCredential(path, 'stall', neighbour)
    expect(
      (await get(path, { headers: { ...neighbour, authorization: pending.authorization } })).status,
    ).toBe(503)
    // One declined credential replayed fifteen times: one processor call, one failure.
    const first = await decline(path, attacker)
    expect(first.status).toBe(402)
    for (let i = 0; i < 15; i++) {
      const replay = await get(path, { headers: { ...attacker, authorization: first.auth } })
      expect(replay.status).toBe(402)
    }
    // Nine more fresh refusals fill the window of this /64 (ten a minute).
    for (let i = 0; i < 9; i++) expect((await decline(path, attacker)).status).toBe(402)
    const limited = await decline(path, attacker)
    expect(limited.status).toBe(429)
    // Nothing was claimed: the same credential may come back after Retry-After; no payment asked for.
    expect(limited.retryAfter).toMatch(/^\d+$/)
    expect(limited.body).toMatchObject({ status: 429, retryable: 'same-credential' })
    // The neighbour's pending payment is not limited: it completes and is delivered.
    await until(async () => (await processorLedger()).stalled.includes(pending.spt))
    await standin(`/__standin/release/${pending.spt}`)
    await until(async () => (await processorLedger()).succeeded[pending.spt] !== undefined)
    const delivered = await get(path, { headers: { ...neighbour, authorization: pending.authorization } })
    expect(delivered.status).toBe(200)
  })

  it('behavior: rotating addresses inside one /64 is one client', async () => {
    const path = '/v1/fde-lessons?topic=dns'
    for (let i = 1; i <= 10; i++)
      expect((await decline(path, { 'cf-connecting-ip': `2001:db8:502:7::${i.toString(16)}` })).status).toBe(
        402,
      )
    expect((await decline(path, { 'cf-connecting-ip': '2001:db8:502:7:ffff::1' })).status).toBe(429)
  })

  it('behavior: callers on Cloudflare Workers are counted by their zone, and CF-Worker from anywhere else buys nothing', async () => {
    const path = '/v1/fde-lessons?topic=deploy'
    const egress = '2a06:98c0:3600::103'
    for (let i = 0; i < 10; i++)
      expect(
        (await decline(path, { 'cf-connecting-ip': egress, 'cf-worker': 'zone-a.example' })).status,
      ).toBe(402)
    expect((await decline(path, { 'cf-connecting-ip': egress, 'cf-worker': 'zone-a.example' })).status).toBe(
      429,
    )
    // Another zone behind the same shared address is another client.
    expect((await decline(path, { 'cf-connecting-ip': egress, 'cf-worker': 'zone-b.example' })).status).toBe(
      402,
    )
    // From an ordinary address, a new CF-Worker value per request is still one client.
    for (let i = 0; i < 10; i++)
      expect(
        (await decline(path, { 'cf-connecting-ip': '198.51.100.77', 'cf-worker': `zone-${i}.example` }))
          .status,
      ).toBe(402)
    expect(
      (await decline(path, { 'cf-connecting-ip': '198.51.100.77', 'cf-worker': 'zone-new.example' })).status,
    ).toBe(429)
  })
})

describe('a body with no length', () => {
  /**
   * Sends a chunked body of more than `cap` bytes, keeps the body open (no last chunk), and waits
   * for the answer: a server that needed the whole body would never answer.
   */
  async function chunkedPastTheCap(path: string, headers: Record<string, string>, cap: number) {
    const { hostname, port } = new URL(base())
    return new Promise<{ status: number; sent: number }>((resolve) => {
      let answer = ''
      let sent = 0
      const socket = connect(Number(port), hostname, async () => {
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nTransfer-Encoding: chunked\r\n${Object.entries(
            headers,
          )
            .map(([k, v]) => `${k}: ${v}\r\n`)
            .join('')}\r\n`,
        )
        const chunk = 'x'.repeat(8192)
        while (sent <= cap + 64 * 1024 && !answer) {
          socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
          sent += chunk.length
          await new Promise((r) => setImmediate(r))
        }
      })
      // A server that never answers fails by the test's own time limit, however busy the machine.
      onTestFailed(() => {
        socket.destroy()
        console.error(`no answer with the body still open after ${sent} bytes`)
      })
      socket.on('data', (d) => {
        answer += d
        const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)
        if (status) {
          socket.destroy()
          resolve({ status: Number(status[1]), sent })
        }
      })
      socket.on('error', () => undefined)
    })
  }

  it('error: /mcp and submit answer 413 to a body past their cap while it is still being sent', async () => {
    const mcp = await chunkedPastTheCap(
      '/mcp',
      { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      64 * 1024,
    )
    expect(mcp.status).toBe(413)
    const submit = await chunkedPastTheCap(
      '/v1/pricing/submit',
      { 'content-type': 'application/json', 'cf-connecting-ip': '198.18.200.1' },
      16 * 1024,
    )
    expect(submit.status).toBe(413)
    // And the service still answers.
    expect((await get('/v1/catalogue')).status).toBe(200)
  })
})

describe('the scheduled reconciler', () => {
  const HOUR = 60 * 60 * 1000
  /** Fires the gateway's Cron Trigger with its clock at `time` (local runtime only). */
  const reconcile = async (time: number) => {
    const r = await fetch(`${base()}/cdn-cgi/local/scheduled?time=${time}`)
    expect(r.status).toBe(200)
  }
  const refundsOf = async (intent: string) => (await processorLedger()).refunds[intent] ?? []

  it('behavior: refunds each orphaned charge exactly once, never a delivered or still deliverable one, and says so to its buyer', async () => {
    const path = '/v1/pricing?category=coding-agent'
    // (a) Charged, answer lost, buyer never back.
    const lost = await cardCredential(path, 'lost')
    expect((await get(path, { headers: { authorization: lost.authorization } })).status).toBe(503)
    const lostIntent = (await processorLedger()).succeeded[lost.spt] as string
    // (b) Charged after the gateway stopped waiting, buyer never back.
    const stalled = await cardCredential(path, 'stall')
    expect((await get(path, { headers: { authorization: stalled.authorization } })).status).toBe(503)
    await until(async () => (await processorLedger()).stalled.includes(stalled.spt))
    await standin(`/__standin/release/${stalled.spt}`)
    await until(async () => (await processorLedger()).succeeded[stalled.spt] !== undefined)
    const stalledIntent = (await processorLedger()).succeeded[stalled.spt] as string
    // (c) A charge of this service that no ledger record claims.
    const orphan = await standin('/v1/payment_intents', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${STANDIN_SECRET}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        amount: '50',
        currency: 'usd',
        confirm: 'true',
        shared_payment_granted_token: token(),
        'metadata[challenge_id]': `unclaimed-${crypto.randomUUID()}`,
        'metadata[machine_payment]': 'true',
        'metadata[realm]': lost.challenge.realm,
      }),
    })
    const orphanIntent = ((await orphan.json()) as { id: string }).id
    // (d) Delivered. (e) Charged and pending, then collected by its buyer inside the window.
    const delivered = await cardCredential(path)
    expect((await get(path, { headers: { authorization: delivered.authorization } })).status).toBe(200)
    const late = await cardCredential(path, 'lost')
    expect((await get(path, { headers: { authorization: late.authorization } })).status).toBe(503)

    // Now: no charge is old enough for its delivery window to have closed, so the reconciler does
    // not read them yet (it reads only that band of the account's intents), and nothing goes back.
    await reconcile(Date.now())
    for (const intent of [orphanIntent, lostIntent, stalledIntent])
      expect(await refundsOf(intent)).toEqual([])
    expect((await get(path, { headers: { authorization: late.authorization } })).status).toBe(200)

    // A day and more later, twice: every undeliverable charge once, nothing delivered.
    const later = Date.now() + 25 * HOUR
    await reconcile(later)
    await reconcile(later + HOUR)
    for (const intent of [lostIntent, stalledIntent, orphanIntent])
      expect(await refundsOf(intent), intent).toHaveLength(1)
    for (const spt of [delivered.spt, late.spt])
      expect(await refundsOf((await processorLedger()).succeeded[spt] as string)).toEqual([])
    // The buyer who comes back is told its money was returned, and with which refund.
    const back = await get(path, { headers: { authorization: lost.authorization } })
    expect(back.status).toBe(402)
    expect(await problemType(back.clone())).toMatch(/payment-refunded$/)
    expect(((await back.clone().json()) as { retryable: unknown }).retryable).toBe('pay-again')
    expect(((await back.json()) as { detail: string }).detail).toContain((await refundsOf(lostIntent))[0])
  })
})
