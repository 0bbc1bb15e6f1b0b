/**
 * The HTTP face of the payment core: read `Authorization: Payment …`, answer 402 with a fresh
 * challenge (WWW-Authenticate, no-store, problem body), or let the paid response through.
 */
import type { Env } from '../env.js'
import type { Binding } from './binding.js'
import { formatChallenge } from './challenge.js'
import { issueChallenge, type Ledger, type PaymentConfig, verifyAndSettle } from './charge.js'
import { MalformedCredential, parseAuthorization } from './credential.js'
import { problemBody, type Refusal, refusal } from './problems.js'
import type { Receipt } from './receipt.js'

export function ledgerOf(env: Env): Ledger {
  return {
    settle: (id, input) => env.LEDGER.get(env.LEDGER.idFromName(id)).settle({ challengeId: id, ...input }),
  }
}

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
  if (!header || !/^payment(\s|$)/i.test(header.trim()))
    return {
      paid: false,
      outcome: 'challenged',
      response: await challengeResponse(
        config,
        binding,
        description,
        refusal('payment-required', 'this call costs 0.50 USD; pay the challenge and repeat the request'),
      ),
    }
  let settlement: Awaited<ReturnType<typeof verifyAndSettle>>
  try {
    settlement = await verifyAndSettle(config, ledgerOf(env), parseAuthorization(header), binding)
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
  // A processor outage (503) keeps the credential retryable, so it gets Retry-After, not a new challenge.
  const challenge = r.status === 402 ? await issueChallenge(config, binding, description) : undefined
  if (challenge) headers['www-authenticate'] = formatChallenge(challenge)
  else headers['retry-after'] = '5'
  return new Response(JSON.stringify(problemBody(r, challenge?.id)), { status: r.status, headers })
}
