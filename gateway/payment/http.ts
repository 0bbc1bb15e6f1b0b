/**
 * The HTTP face of the payment core: read `Authorization: Payment …`, answer 402 with a fresh
 * challenge (WWW-Authenticate, no-store, problem body), or let the paid response through.
 */

import { PRICE } from '../../schema/routes.js'
import type { Env } from '../env.js'
import { sha256Hex } from '../sha256-hex.js'
import type { Binding } from './binding.js'
import { formatChallenge } from './challenge.js'
import {
  type AttemptGate,
  issueChallenge,
  type Ledger,
  type PaymentConfig,
  verifyAndSettle,
} from './charge.js'
import { MalformedCredential, parseAuthorization } from './credential.js'
import { problemBody, type Refusal, refusal } from './problems.js'
import type { Receipt } from './receipt.js'

export function ledgerOf(env: Env): Ledger {
  return {
    settle: (id, input) => env.LEDGER.get(env.LEDGER.idFromName(id)).settle({ challengeId: id, ...input }),
  }
}

/** The failed-attempt gate of one client, named by a hash of its address. */
export async function attemptsOf(env: Env, clientAddress: string): Promise<AttemptGate> {
  const limiter = env.ATTEMPTS.get(env.ATTEMPTS.idFromName(await sha256Hex(`attempts:${clientAddress}`)))
  return { retryAfterS: () => limiter.retryAfterS(), fail: () => limiter.fail() }
}

export const clientAddress = (request: Request) => request.headers.get('cf-connecting-ip') ?? 'unknown'

export type PaymentGate =
  | { paid: true; receipt: Receipt }
  | { paid: false; response: Response; outcome: 'challenged' | 'refused' }

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
  let settlement: Awaited<ReturnType<typeof verifyAndSettle>>
  try {
    settlement = await verifyAndSettle(
      config,
      ledgerOf(env),
      parseAuthorization(header),
      binding,
      await attemptsOf(env, clientAddress(request)),
    )
  } catch (error) {
    if (!(error instanceof MalformedCredential)) throw error
    settlement = { ok: false, refusal: refusal('malformed-credential', error.message) }
  }
  if (settlement.ok) return { paid: true, receipt: settlement.receipt }
  return {
    paid: false,
    outcome: 'refused',
    response: await challengeResponse(config, binding, description, settlement.refusal),
  }
}

async function challengeResponse(config: PaymentConfig, binding: Binding, description: string, r: Refusal) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' }
  // A pending payment (503) keeps the credential retryable, and a client over its failure limit (429)
  // must wait: both get Retry-After, not a new challenge.
  const challenge = r.status === 402 ? await issueChallenge(config, binding, description) : undefined
  if (challenge) headers['www-authenticate'] = formatChallenge(challenge)
  else headers['retry-after'] = String(r.retryAfterS ?? 5)
  return new Response(JSON.stringify(problemBody(r, challenge?.id)), { status: r.status, headers })
}
