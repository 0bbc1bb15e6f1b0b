/**
 * The HTTP face of the payment core: read `Authorization: Payment …`, answer 402 with a fresh
 * challenge (WWW-Authenticate, no-store, problem body), or let the paid response through.
 */

import { PRICE } from '../../schema/routes.js'
import type { Env } from '../env.js'
import { badRequest, problemResponse } from '../http/problem.js'
import { sha256Hex } from '../sha256-hex.js'
import type { Binding } from './binding.js'
import { formatChallenge } from './challenge.js'
import {
  type AttemptGate,
  asIssued,
  issueChallenge,
  type Ledger,
  type PaymentConfig,
  verifyAndSettle,
} from './charge.js'
import { clientKey } from './client-key.js'
import { MalformedCredential, parseAuthorization } from './credential.js'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_RULE, parseIdempotencyKey } from './idempotency-key.js'
import { problemBody, type Refusal, refusal } from './problems.js'
import type { Receipt } from './receipt.js'
import type { KeptAnswer } from './settlement.js'

/**
 * A paid answer is bound to one credential: no shared cache may keep it (private), and no browser or
 * agent cache should write it to disk either (no-store). The same on paid MCP results.
 */
export const PAID_CACHE_CONTROL = 'private, no-store'

export function ledgerOf(env: Env): Ledger {
  const of = (id: string) => env.LEDGER.get(env.LEDGER.idFromName(id))
  return {
    settle: (id, input) => of(id).settle({ challengeId: id, ...input }),
    keepAnswer: (id, key, answer) => of(id).keepAnswer(key, answer),
    refundIfOrphaned: (id, intentId, now, processor) => of(id).refundIfOrphaned(intentId, id, now, processor),
  }
}

/** The failed-attempt gate of one client, named by a hash of its key (client-key.ts), never the address. */
export async function attemptsOf(env: Env, client: string): Promise<AttemptGate> {
  const limiter = env.ATTEMPTS.get(env.ATTEMPTS.idFromName(await sha256Hex(`attempts:${client}`)))
  return {
    retryAfterS: () => limiter.retryAfterS(),
    fail: () => limiter.fail(),
    leftUnfinished: () => limiter.leftUnfinished(),
  }
}

/** The expiry the request's credential echoes, if it carries one that parses (request-clock.ts). */
export function echoedExpires(request: Request): string | undefined {
  const header = request.headers.get('authorization')
  if (!header || !/^payment(\s|$)/i.test(header.trim())) return undefined
  try {
    return parseAuthorization(header).challenge.expires
  } catch {
    return undefined
  }
}

/** Whom a request's failed payments count against (client-key.ts). */
export const clientOf = (request: Request) =>
  clientKey(request.headers.get('cf-connecting-ip'), request.headers.get('cf-worker'))

export type PaymentGate =
  | {
      paid: true
      receipt: Receipt
      /** The request's Idempotency-Key, if it carried one. */
      idempotencyKey?: string
      /** A repeat of an answered request under its key: the kept answer, if it was kept. */
      repeat?: { answer?: KeptAnswer }
    }
  | { paid: false; response: Response; outcome: 'challenged' | 'refused' | 'rejected' }

export async function requirePayment(
  request: Request,
  env: Env,
  config: PaymentConfig,
  binding: Binding,
  description: string,
): Promise<PaymentGate> {
  const header = request.headers.get('authorization')
  // HEAD never pays: it would use the credential up and deliver no body.
  if (request.method === 'HEAD' || !header || !/^payment(\s|$)/i.test(header.trim()))
    return {
      paid: false,
      outcome: 'challenged',
      response: await challengeResponse(
        config,
        binding,
        description,
        refusal(
          'payment-required',
          `this call costs ${PRICE.display}; pay the challenge and repeat the request`,
        ),
      ),
    }
  const idempotencyKey = parseIdempotencyKey(request.headers.get(IDEMPOTENCY_KEY_HEADER) ?? undefined)
  // A malformed key is the client's error, answered before anything is claimed or charged.
  if (idempotencyKey === null)
    return {
      paid: false,
      outcome: 'rejected',
      response: problemResponse(
        badRequest(`Idempotency-Key must be ${IDEMPOTENCY_KEY_RULE}`, {
          field: 'Idempotency-Key',
          allowed: IDEMPOTENCY_KEY_RULE,
        }),
      ),
    }
  let settlement: Awaited<ReturnType<typeof verifyAndSettle>>
  try {
    settlement = await verifyAndSettle(
      config,
      ledgerOf(env),
      parseAuthorization(header),
      binding,
      await attemptsOf(env, clientOf(request)),
      idempotencyKey,
    )
  } catch (error) {
    if (!(error instanceof MalformedCredential)) throw error
    settlement = { ok: false, refusal: refusal('malformed-credential', error.message) }
  }
  if (settlement.ok)
    return {
      paid: true,
      receipt: settlement.receipt,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      ...(settlement.repeat ? { repeat: settlement.repeat } : {}),
    }
  return {
    paid: false,
    outcome: 'refused',
    response: await challengeResponse(config, binding, description, settlement.refusal),
  }
}

async function challengeResponse(config: PaymentConfig, binding: Binding, description: string, r: Refusal) {
  // 402 bodies are application/json (SPEC.md); every other refusal is an RFC 9457 problem.
  const headers: Record<string, string> = {
    'content-type': r.status === 402 ? 'application/json' : 'application/problem+json',
    'cache-control': 'no-store',
  }
  // Only a 402 carries a challenge, and a fresh one only when paying again is the remedy. A pending
  // payment (503) keeps the credential retryable, a client over its failure limit (429) must wait,
  // and a settled credential (409) must never pay again.
  const challenge =
    r.status === 402
      ? r.challenge
        ? asIssued(r.challenge, description)
        : await issueChallenge(config, binding, description)
      : undefined
  if (challenge) headers['www-authenticate'] = formatChallenge(challenge)
  if (r.retryAfterS !== undefined) headers['retry-after'] = String(r.retryAfterS)
  return new Response(JSON.stringify(problemBody(r, challenge?.id)), { status: r.status, headers })
}
