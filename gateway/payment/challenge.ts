/**
 * A Payment challenge: its fields, the WWW-Authenticate form and the parse of that form, and the
 * one way every payment method issues a challenge and checks the one a credential echoes. A method
 * brings only its offer (its name and its encoded request); nothing here names a method.
 */

import { decodeText, EncodingError } from '../../schema/base64url.js'
import { AuthParamsError, formatPaymentParams, parsePaymentParams } from './auth-params.js'
import { type Binding, opaqueBinds, opaqueFor } from './binding.js'
import { challengeId, sameId } from './challenge-id.js'

export interface Challenge {
  id: string
  realm: string
  method: string
  intent: string
  /** base64url of the JCS form of the request object, exactly as sent. */
  request: string
  description?: string | undefined
  digest?: string | undefined
  expires?: string | undefined
  header?: string | undefined
  opaque?: string | undefined
}

const REQUIRED = ['id', 'realm', 'method', 'intent', 'request'] as const
const OPTIONAL = ['description', 'digest', 'expires', 'header', 'opaque'] as const

export function formatChallenge(c: Challenge): string {
  return formatPaymentParams([
    ['id', c.id],
    ['realm', c.realm],
    ['method', c.method],
    ['intent', c.intent],
    ['request', c.request],
    ['description', c.description],
    ['digest', c.digest],
    ['expires', c.expires],
    ['header', c.header],
    ['opaque', c.opaque],
  ])
}

/** Decodes a request parameter into its JSON object; anything else is an error. */
export function decodeRequest(request: string): Record<string, unknown> {
  let value: unknown
  try {
    value = JSON.parse(decodeText(request))
  } catch (error) {
    if (error instanceof EncodingError) throw new AuthParamsError('request is not base64url')
    throw new AuthParamsError('request is not JSON')
  }
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new AuthParamsError('request is not a JSON object')
  return value as Record<string, unknown>
}

/** Parses a WWW-Authenticate value into a challenge and its decoded request. */
export function parseChallenge(header: string): { challenge: Challenge; request: Record<string, unknown> } {
  const params = parsePaymentParams(header)
  for (const name of REQUIRED) if (!params[name]) throw new AuthParamsError(`missing ${name}`)
  const challenge: Challenge = {
    id: params.id as string,
    realm: params.realm as string,
    method: params.method as string,
    intent: params.intent as string,
    request: params.request as string,
  }
  for (const name of OPTIONAL) if (params[name] !== undefined) challenge[name] = params[name]
  return { challenge, request: decodeRequest(challenge.request) }
}

/** What one payment method offers: its name and its request as sent (base64url of its JCS form). */
export interface Offer {
  method: string
  request: string
}

/** Every payment this service asks for is a one-off charge. */
export const INTENT = 'charge'

/** What issuing and checking a challenge needs of the payment configuration (methods.ts). */
export interface ChallengeConfig {
  realm: string
  hmacSecret: string
  challengeTtlMs: number
}

/** A fresh challenge for `offer`, bound to one request (`opaque`) and lasting the configured time. */
export async function issueChallenge(
  config: ChallengeConfig,
  offer: Offer,
  binding: Binding,
  description: string,
  now = Date.now(),
): Promise<Challenge> {
  const fields = {
    realm: config.realm,
    method: offer.method,
    intent: INTENT,
    request: offer.request,
    expires: new Date(now + config.challengeTtlMs).toISOString(),
    opaque: opaqueFor(binding),
  }
  return asIssued({ id: await challengeId(config.hmacSecret, fields), ...fields }, description)
}

/**
 * The members this service issues, in its order, and nothing else the client echoed. Only issued
 * challenges reach here (their id verified), and this service issues none with `digest` or `header`.
 */
export const issuedMembers = (c: Challenge): Challenge => ({
  id: c.id,
  realm: c.realm,
  method: c.method,
  intent: c.intent,
  request: c.request,
  expires: c.expires,
  opaque: c.opaque,
})

/**
 * A challenge in the form this service issues it, with the route's description: a challenge handed
 * back is then byte for byte the one issued, whatever the client echoed of the unbound members.
 */
export const asIssued = (c: Challenge, description: string): Challenge => ({
  ...issuedMembers(c),
  description,
})

/** A verified challenge's expiry, or why the challenge is refused (the core tells it as `invalid-challenge`). */
export type EchoedCheck = { ok: true; expiresAt: number } | { ok: false; detail: string }

/**
 * Checks the challenge a credential echoes (its request as the string it was issued as): issued by
 * this server (the HMAC id over the bound members), for `offer` as it stands (undefined: a method
 * this service does not take), with an expiry, and for this request. Whether it has expired is the
 * ledger's to judge, at a new claim only.
 */
export async function verifyEchoedChallenge(
  config: ChallengeConfig,
  offer: Offer | undefined,
  echoed: Challenge,
  binding: Binding,
): Promise<EchoedCheck> {
  const refuse = (detail: string): EchoedCheck => ({ ok: false, detail })
  const expected = await challengeId(config.hmacSecret, {
    realm: echoed.realm,
    method: echoed.method,
    intent: echoed.intent,
    request: echoed.request,
    expires: echoed.expires,
    digest: echoed.digest,
    opaque: echoed.opaque,
    header: echoed.header,
  })
  if (!sameId(expected, echoed.id)) return refuse('the challenge was not issued by this server')
  if (
    offer === undefined ||
    echoed.realm !== config.realm ||
    echoed.method !== offer.method ||
    echoed.intent !== INTENT ||
    echoed.request !== offer.request
  )
    return refuse('the challenge does not match the current offer')
  const expiresAt = echoed.expires ? Date.parse(echoed.expires) : Number.NaN
  if (Number.isNaN(expiresAt)) return refuse('the challenge has no valid expiry')
  if (!opaqueBinds(echoed.opaque, binding))
    return refuse('the credential was issued for another request (path, query, tool or arguments)')
  return { ok: true, expiresAt }
}
