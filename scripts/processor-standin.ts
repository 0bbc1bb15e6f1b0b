/**
 * The local payment processor stand-in: the subset of Stripe's PaymentIntents API the gateway
 * uses, with shared-payment-token semantics, so `npm start` and the tests can pay without a
 * network. Development and test only; a deployed gateway refuses it.
 *
 * Tokens: `spt_test_<anything>` pays once; `spt_test_decline…` is declined; `spt_test_action…`
 * needs an extra step (requires_action); `spt_test_timeout…` gets no answer; `spt_test_error…`
 * gets a 500; `spt_test_slow…` answers after SLOW_MS. A repeated Idempotency-Key replays the
 * first answer with `Idempotent-Replayed: true`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'

import { STANDIN_SECRET } from '../schema/config.js'

const SLOW_MS = 1500

interface StoredAnswer {
  status: number
  body: unknown
  params: string
}

export interface StandinLedger {
  /** PaymentIntents that succeeded, by token. */
  succeeded: Map<string, string>
  /** Every call received (after idempotent replays are answered). */
  calls: number
  /** Calls answered from the idempotency store. */
  replays: number
}

export interface ProcessorStandin {
  url: string
  ledger: StandinLedger
  close(): Promise<void>
}

export async function startProcessorStandin(port = 0, host = '127.0.0.1'): Promise<ProcessorStandin> {
  const ledger: StandinLedger = { succeeded: new Map(), calls: 0, replays: 0 }
  const answers = new Map<string, StoredAnswer>()
  let next = 1
  const held = new Set<ServerResponse>()

  const server: Server = createServer(async (req, res) => {
    try {
      await handle(req, res)
    } catch {
      send(res, 500, { error: { type: 'api_error', message: 'stand-in failure' } })
    }
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin')
    if (req.method === 'GET' && url.pathname === '/__standin/ledger')
      return send(res, 200, {
        succeeded: Object.fromEntries(ledger.succeeded),
        calls: ledger.calls,
        replays: ledger.replays,
      })
    if (req.method !== 'POST' || url.pathname !== '/v1/payment_intents')
      return send(res, 404, { error: { type: 'invalid_request_error', message: 'unrecognised request URL' } })
    if (req.headers.authorization !== `Bearer ${STANDIN_SECRET}`)
      return send(res, 401, { error: { type: 'invalid_request_error', message: 'invalid API key' } })
    const raw = await readBody(req)
    const params = new URLSearchParams(raw)
    const key = req.headers['idempotency-key']
    const stored = typeof key === 'string' ? answers.get(key) : undefined
    if (stored) {
      ledger.replays++
      if (stored.params !== raw)
        return send(res, 400, {
          error: { type: 'idempotency_error', message: 'keys reused with other parameters' },
        })
      return send(res, stored.status, stored.body, { 'idempotent-replayed': 'true' })
    }
    ledger.calls++
    const answer = await decide(params, res)
    if (!answer) return // held open: the timeout token never gets an answer
    if (typeof key === 'string' && answer.status < 500) answers.set(key, { ...answer, params: raw })
    send(res, answer.status, answer.body)
  }

  async function decide(params: URLSearchParams, res: ServerResponse) {
    const token = params.get('shared_payment_granted_token') ?? ''
    const amount = Number(params.get('amount'))
    if (!Number.isInteger(amount) || amount < 50 || !params.get('currency'))
      return invalid('amount must be an integer of at least 50 and currency is required')
    if (params.get('confirm') !== 'true') return invalid('confirm=true is required')
    if (!token.startsWith('spt_test_'))
      return invalid(`no such shared payment token: '${token}'`, 'resource_missing')
    if (token.startsWith('spt_test_timeout')) {
      held.add(res)
      return null
    }
    if (token.startsWith('spt_test_error'))
      return { status: 500, body: { error: { type: 'api_error', message: 'stand-in outage' } } }
    if (token.startsWith('spt_test_slow')) await new Promise((r) => setTimeout(r, SLOW_MS))
    if (token.startsWith('spt_test_decline'))
      return {
        status: 402,
        body: { error: { type: 'card_error', code: 'card_declined', message: 'Your card was declined.' } },
      }
    const id = `pi_standin_${String(next++).padStart(6, '0')}`
    if (token.startsWith('spt_test_action'))
      return { status: 200, body: intent(id, amount, 'requires_action') }
    if (ledger.succeeded.has(token))
      return invalid('this shared payment token was already used', 'shared_payment_granted_token_used')
    ledger.succeeded.set(token, id)
    return { status: 200, body: intent(id, amount, 'succeeded') }
  }

  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const address = server.address()
  const actualPort = typeof address === 'object' && address ? address.port : port
  return {
    url: `http://${host}:${actualPort}`,
    ledger,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function intent(id: string, amount: number, status: string) {
  return { id, object: 'payment_intent', amount, currency: 'usd', status }
}

function invalid(message: string, code = 'parameter_invalid') {
  return { status: 400, body: { error: { type: 'invalid_request_error', code, message } } }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
