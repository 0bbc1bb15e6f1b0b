/**
 * Helpers for tests that talk to the running service: addresses, the processor stand-in's
 * ledger, and building credentials with mppx (an independent implementation of the scheme).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Challenge, Credential } from 'mppx'
import { inject } from 'vitest'

export const base = () => inject('baseUrl')
export const get = (path: string, init?: RequestInit) => fetch(`${base()}${path}`, init)

let tokens = 0
/** A fresh stand-in token that pays once; a prefix picks a fault (decline, action, timeout, error). */
export const token = (kind = 'ok') => `spt_test_${kind}_${process.pid}_${Date.now()}_${tokens++}`

export interface StandinLedger {
  succeeded: Record<string, string>
  calls: number
  replays: number
  /** Stall tokens the stand-in is holding, waiting for a release. */
  stalled: string[]
  /** Refund ids by PaymentIntent. */
  refunds: Record<string, string[]>
  /** Every authenticated API request the stand-in answered (creates, reads, lists, searches, refunds). */
  apiCalls: number
  /** The field each create call carried its token in, in order, by token. */
  tokenFields: Record<string, string[]>
}

export async function processorLedger(): Promise<StandinLedger> {
  return (await fetch(`${inject('processorUrl')}/__standin/ledger`)).json() as Promise<StandinLedger>
}

/** The local HMAC secret, read from the service's state directory, for forging tests. */
/** The running service's own public folder: the files its asset store serves. */
export const publicDir = () => join(inject('stateDir'), 'public')

export const hmacSecret = () => readFileSync(join(inject('stateDir'), 'payment-hmac-secret'), 'utf8').trim()

export function challengeFrom(response: Response) {
  return Challenge.fromResponse(response)
}

/** `Authorization: Payment …` paying `challenge` with `spt`. */
export function authorization(challenge: ReturnType<typeof challengeFrom>, payload: Record<string, unknown>) {
  return Credential.serialize(Credential.from({ challenge, payload }))
}

/** A fresh challenge for `path` (asked with `headers`), and a credential paying it with a stand-in token of `kind`. */
export async function cardCredential(path: string, kind = 'ok', headers: Record<string, string> = {}) {
  const challenge = challengeFrom(await get(path, { headers }))
  const spt = token(kind)
  const credential = authorization(challenge, { spt })
  return { challenge, spt, authorization: credential, auth: { headers: { authorization: credential } } }
}

/**
 * Calls `path` unpaid, then pays its challenge with `spt` (under the Idempotency-Key `key`, if
 * given); returns both responses and the request init that sends the same credential again.
 */
export async function payOnce(path: string, spt = token(), key?: string) {
  const unpaid = await get(path)
  const challenge = challengeFrom(unpaid)
  const auth = authorization(challenge, { spt })
  const init = { headers: { authorization: auth, ...(key === undefined ? {} : { 'idempotency-key': key }) } }
  const paid = await get(path, init)
  return { unpaid, challenge, auth, init, paid, spt }
}

/** Waits until `check` holds, asking again every 50 ms (the test's own limit bounds the wait). */
export async function until(check: () => Promise<boolean>) {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50))
}

/** Sets the processor stand-in's test controls (faults, clock skew, search lag). */
export const standin = (path: string, init: RequestInit = { method: 'POST' }) =>
  fetch(`${inject('processorUrl')}${path}`, init)

/** What a paid request's answer says, read once: its status, bytes and the headers money tests compare. */
export interface Answer {
  status: number
  body: string
  digest: string | null
  receipt: string | null
  challenge: string | null
  retryAfter: string | null
}

export const answerOf = async (r: Response): Promise<Answer> => ({
  status: r.status,
  body: await r.text(),
  digest: r.headers.get('content-digest'),
  receipt: r.headers.get('payment-receipt'),
  challenge: r.headers.get('www-authenticate'),
  retryAfter: r.headers.get('retry-after'),
})

export function decodeReceipt(header: string | null): Record<string, unknown> {
  if (!header) throw new Error('no Payment-Receipt header')
  return JSON.parse(Buffer.from(header, 'base64url').toString('utf8'))
}

export const PAID_PATHS = [
  '/v1/fde-lessons',
  '/v1/fde-lessons?topic=retry',
  '/v1/fde-playbooks',
  '/v1/fde-preship-checklist?phase=verifying',
  '/v1/pricing',
  '/v1/pricing?category=voice-agent',
  '/v1/pricing/changes?since=2026-01-01',
]

/** A 2025-era MCP tools/call on the wire (no envelope, no SDK), with extra headers. */
export function legacyToolCall(params: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${base()}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
  })
}
