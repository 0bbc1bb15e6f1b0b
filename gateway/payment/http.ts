/**
 * The HTTP face of the payment core: read `Authorization: Payment …`, answer 402 with a fresh
 * challenge (WWW-Authenticate, no-store, problem body), or let the paid response through.
 */

import { PRICE } from '../../schema/routes.js'
import type { AssetReader } from '../datasets/bundle-store.js'
import type { Env } from '../env.js'
import { badRequest, problem, problemResponse } from '../http/problem.js'
import {
  ACCEPT_PAYMENT_HEADER,
  type PaymentRange,
  parseAcceptPayment,
  preferredOffers,
} from './accept-payment.js'
import type { Binding } from './binding.js'
import { asIssued, formatChallenge, issueChallenge } from './challenge.js'
import { clientKey } from './client-key.js'
import { MalformedCredential, parseAuthorization } from './credential.js'
import { challengeFromAccepted, evmOffer } from './evm/offer.js'
import { networkOf, x402Requirements } from './evm/request.js'
import { declarationFor, v1OutputSchema } from './evm/x402-discovery.js'
import {
  decodeXPayment,
  v1Challenge,
  v1Expires,
  v1Network,
  v1Requirements,
  X_PAYMENT_HEADER,
  X_PAYMENT_RESPONSE_HEADER,
} from './evm/x402-v1.js'
import {
  decodePaymentSignature,
  encodePaymentRequired,
  encodePaymentResponse,
  PAYMENT_REQUIRED_HEADER,
  PAYMENT_RESPONSE_HEADER,
  PAYMENT_SIGNATURE_HEADER,
} from './evm/x402-wire.js'
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_RULE, parseIdempotencyKey } from './idempotency-key.js'
import { cardOffer, type Paying, type PaymentConfig, type WalletPayment } from './methods.js'
import { type Ledger, pay, type Settlement } from './pay.js'
import { problemBody, type Refusal, refusal } from './problems.js'
import type { Receipt } from './receipt.js'
import type { KeptAnswer } from './settlement.js'
import { PAYMENT_AUTHORIZATION_HEADER, paymentCredentialCount, severalPayments } from './several-payments.js'

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

/** The expiry the request's credential echoes, if it carries one that parses (request-clock.ts). */
export function echoedExpires(request: Request): string | undefined {
  const header = request.headers.get('authorization')
  const x402 = request.headers.get(PAYMENT_SIGNATURE_HEADER)
  const xPayment = request.headers.get(X_PAYMENT_HEADER)
  try {
    if (header && /^payment(\s|$)/i.test(header.trim())) return parseAuthorization(header).challenge.expires
    // x402 v1 echoes no challenge: the one its payment derives expires with the authorization.
    if (!x402 && xPayment) return v1Expires(decodeXPayment(xPayment).authorization)
    // On the x402 wire the challenge's expiry is echoed in the accepted requirements.
    const expires = x402 ? decodePaymentSignature(x402).accepted.extra : undefined
    const value = (expires as Record<string, unknown> | undefined)?.expires
    return typeof value === 'string' ? value : undefined
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
      /** Headers the paid answer carries beside Payment-Receipt (x402's PAYMENT-RESPONSE). */
      headers?: Record<string, string>
    }
  | { paid: false; response: Response; outcome: 'challenged' | 'refused' | 'rejected' }

export async function requirePayment(
  request: Request,
  env: Env,
  config: PaymentConfig,
  binding: Binding,
  description: string,
  url = request.url,
): Promise<PaymentGate> {
  const header = request.headers.get('authorization')
  const hasPayment = !!header && /^payment(\s|$)/i.test(header.trim())
  const x402 = config.evm ? request.headers.get(PAYMENT_SIGNATURE_HEADER) : null
  const xPayment = config.evm ? request.headers.get(X_PAYMENT_HEADER) : null
  const accepted = parseAcceptPayment(request.headers.get(ACCEPT_PAYMENT_HEADER))
  const challenge = (r: Refusal) =>
    challengeResponse(config, binding, description, r, url, env.ASSETS, accepted)
  const payments = [hasPayment, !!x402, !!xPayment].filter(Boolean).length
  // HEAD never pays: it would use the credential up and deliver no body. With a credential it gets
  // no challenge either (its body, which would say so, is dropped): the credential is left to its GET.
  if (request.method === 'HEAD' && payments > 0)
    return {
      paid: false,
      outcome: 'rejected',
      response: problemResponse(
        problem(
          405,
          'head-never-pays',
          'HEAD Never Pays',
          'HEAD neither pays nor uses a credential; send GET with it',
          {
            retryable: 'same-credential',
          },
        ),
        { allow: 'GET' },
      ),
    }
  if (request.method === 'HEAD' || payments === 0)
    return {
      paid: false,
      outcome: 'challenged',
      response: await challenge(
        refusal(
          'payment-required',
          `this call costs ${PRICE.display}; pay the challenge and repeat the request`,
        ),
      ),
    }
  const several = severalPayments({
    authorization: Math.max(paymentCredentialCount(header), Number(hasPayment)),
    paymentAuthorization: paymentCredentialCount(request.headers.get(PAYMENT_AUTHORIZATION_HEADER)),
    paymentSignature: !!x402,
    xPayment: !!xPayment,
  })
  if (several) return { paid: false, outcome: 'rejected', response: problemResponse(several) }
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
          // Nothing was claimed: the same credential, sent again with a valid key, pays as usual.
          retryable: 'same-credential',
        }),
      ),
    }
  let settlement: Settlement
  let paidHeaders: Record<string, string> | undefined
  try {
    const paying = x402
      ? x402Payment(config, x402)
      : xPayment
        ? await x402V1Payment(config, xPayment, binding)
        : parseAuthorization(header as string)
    if (typeof paying === 'string') settlement = { ok: false, refusal: refusal('invalid-challenge', paying) }
    else {
      settlement = await settleCredential(env, config, paying, binding, clientOf(request), idempotencyKey)
      // Each x402 wire answers a settlement in its own header, naming the network its own way.
      if (settlement.ok && 'wire' in paying && paying.wire !== 'mpp' && config.evm) {
        const v1 = paying.wire === 'x402-v1'
        paidHeaders = {
          [v1 ? X_PAYMENT_RESPONSE_HEADER : PAYMENT_RESPONSE_HEADER]: encodePaymentResponse({
            success: true,
            transaction: settlement.receipt.reference,
            network: (v1 ? v1Network(config.evm) : undefined) ?? networkOf(config.evm),
            payer: paying.authorization.from,
          }),
        }
      }
    }
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
      ...(paidHeaders ? { headers: paidHeaders } : {}),
    }
  return { paid: false, outcome: 'refused', response: await challenge(settlement.refusal) }
}

/**
 * Settles a payment by its method, over HTTP and MCP alike: an MPP credential (card or `evm`) or a
 * wallet payment read off an x402 wire, verified and claimed the one way (pay.ts).
 */
export async function settleCredential(
  env: Env,
  config: PaymentConfig,
  paying: Paying,
  binding: Binding,
  client: string,
  idempotencyKey?: string,
): Promise<Settlement> {
  return pay(config, ledgerOf(env), paying, binding, client, idempotencyKey)
}

/** An x402 payment payload, with the challenge its accepted requirements name (or why none). */
function x402Payment(config: PaymentConfig, header: string): WalletPayment | string {
  const payment = decodePaymentSignature(header)
  const echoed = challengeFromAccepted(
    config,
    config.evm as NonNullable<PaymentConfig['evm']>,
    payment.accepted,
  )
  if (typeof echoed === 'string') return echoed
  return {
    echoed,
    authorization: payment.authorization,
    signature: payment.signature,
    wire: 'x402',
    accepted: payment.accepted,
  }
}

/** An x402 v1 payment, with the challenge derived from it and this request (or why it has none). */
async function x402V1Payment(
  config: PaymentConfig,
  header: string,
  binding: Binding,
): Promise<WalletPayment | string> {
  const evm = config.evm as NonNullable<PaymentConfig['evm']>
  const payment = decodeXPayment(header)
  const echoed = await v1Challenge(config, evm, payment, binding)
  if (typeof echoed === 'string') return echoed
  return { echoed, authorization: payment.authorization, signature: payment.signature, wire: 'x402-v1' }
}

async function challengeResponse(
  config: PaymentConfig,
  binding: Binding,
  description: string,
  r: Refusal,
  url: string,
  assets: AssetReader,
  accepted: PaymentRange[] | undefined,
) {
  // Every refusal, the 402 included, is an RFC 9457 problem (draft-httpauth-payment-01 §8.1); x402
  // v1 clients read the 402 body's offer as JSON whatever its media type.
  const headers = new Headers({ 'content-type': 'application/problem+json', 'cache-control': 'no-store' })
  // Only a 402 carries a challenge, and a fresh one only when paying again is the remedy. A pending
  // payment (503) keeps the credential retryable, a client over its failure limit (429) must wait,
  // and a settled credential (409) must never pay again.
  const fresh = r.status === 402 && !r.challenge
  // The same price in USDC beside the card: a second challenge, and the same offer on the x402 wire.
  const wallet =
    fresh && config.evm ? await issueChallenge(config, evmOffer(config.evm), binding, description) : undefined
  // Fresh challenges in the order the client's Accept-Payment asks for (accept-payment.ts); the
  // x402 offers below are x402's and stay whatever it says.
  const challenges = fresh
    ? preferredOffers(
        [await issueChallenge(config, cardOffer(config), binding, description), ...(wallet ? [wallet] : [])],
        accepted,
      )
    : r.status === 402 && r.challenge
      ? [asIssued(r.challenge, description)]
      : []
  for (const c of challenges) headers.append('www-authenticate', formatChallenge(c))
  const challenge = challenges[0]
  let v1Offer: Record<string, unknown> = {}
  if (wallet && config.evm) {
    // What a crawler catalogues the route by (the bazaar extension and service metadata).
    const declared = await declarationFor(assets, new URL(url).pathname)
    headers.set(
      PAYMENT_REQUIRED_HEADER,
      encodePaymentRequired({
        resource: {
          url,
          description,
          mimeType: 'application/json',
          ...(declared ? { serviceName: declared.serviceName, tags: declared.tags } : {}),
        },
        accepts: [x402Requirements(config.evm, wallet)],
        error: r.detail,
        ...(declared ? { extensions: { bazaar: declared.bazaar } } : {}),
      }),
    )
    // x402 v1 clients read the offer from the body, beside the problem's members.
    const v1 = v1Requirements(config.evm, {
      url,
      description,
      ...(declared ? { outputSchema: v1OutputSchema(declared) } : {}),
    })
    if (v1) v1Offer = { x402Version: 1, accepts: [v1], error: r.detail }
  }
  if (r.retryAfterS !== undefined) headers.set('retry-after', String(r.retryAfterS))
  return new Response(
    JSON.stringify({ ...problemBody(r, challenge?.id, fresh && !!config.evm), ...v1Offer }),
    {
      status: r.status,
      headers,
    },
  )
}
