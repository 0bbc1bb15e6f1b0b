/**
 * A Payment challenge: its fields, the WWW-Authenticate form and the parse of that form.
 */

import { decodeText, EncodingError } from '../../schema/base64url.js'
import { AuthParamsError, formatPaymentParams, parsePaymentParams } from './auth-params.js'

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
