/**
 * The credential a client sends back: `Authorization: Payment <base64url(JSON)>`.
 */
import { decodeText, encodeText } from '../../schema/base64url.js'
import type { Challenge } from './challenge.js'

export interface Credential {
  challenge: Challenge
  payload: Record<string, unknown>
  source?: string
}

export class MalformedCredential extends Error {
  override name = 'MalformedCredential'
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v)

/** Honest credentials nest 4 levels deep; far deeper is an attack on whoever walks the tree. */
const MAX_DEPTH = 16

function depth(value: unknown, limit: number): number {
  if (!value || typeof value !== 'object') return 0
  if (limit <= 0) return 1
  let deepest = 0
  for (const child of Object.values(value)) deepest = Math.max(deepest, depth(child, limit - 1))
  return deepest + 1
}

/** Checks the decoded JSON shape; the `request` may arrive as a string (HTTP) or object (MCP). */
export function credentialFromJson(value: unknown): Credential {
  if (!isObject(value)) throw new MalformedCredential('credential is not a JSON object')
  if (depth(value, MAX_DEPTH) > MAX_DEPTH)
    throw new MalformedCredential(`credential nests deeper than ${MAX_DEPTH} levels`)
  const { challenge, payload, source } = value
  if (!isObject(challenge)) throw new MalformedCredential('credential has no challenge object')
  for (const name of ['id', 'realm', 'method', 'intent'] as const)
    if (typeof challenge[name] !== 'string' || challenge[name] === '')
      throw new MalformedCredential(`challenge.${name} is missing`)
  if (typeof challenge.request !== 'string' && !isObject(challenge.request))
    throw new MalformedCredential('challenge.request is missing')
  for (const name of ['description', 'digest', 'expires', 'header', 'opaque'] as const)
    if (challenge[name] !== undefined && typeof challenge[name] !== 'string')
      throw new MalformedCredential(`challenge.${name} is not a string`)
  if (!isObject(payload)) throw new MalformedCredential('credential has no payload object')
  if (source !== undefined && typeof source !== 'string')
    throw new MalformedCredential('source is not a string')
  return {
    challenge: challenge as unknown as Challenge,
    payload,
    ...(source === undefined ? {} : { source }),
  }
}

/** Far above any honest credential (about 1 KB), far below what could cost the parser anything. */
export const MAX_CREDENTIAL_BYTES = 8 * 1024

/**
 * Parses an Authorization header value. Throws MalformedCredential on anything but
 * `Payment <b64url JSON>` of a sane size whose challenge echoes `request` as the string it was sent as.
 */
export function parseAuthorization(header: string): Credential {
  // A request's header is read twice (its clock, then its payment): the second read is the first's.
  if (lastParsed?.header === header) return lastParsed.credential
  const credential = parseHeader(header)
  lastParsed = { header, credential }
  return credential
}

/** The header parsed last and what it gave (only ever a whole, valid credential). */
let lastParsed: { header: string; credential: Credential } | undefined

function parseHeader(header: string): Credential {
  if (header.length > MAX_CREDENTIAL_BYTES)
    throw new MalformedCredential(`the credential is longer than ${MAX_CREDENTIAL_BYTES} bytes`)
  const match = /^payment\s+([A-Za-z0-9_-]+)\s*$/i.exec(header.trim())
  if (!match) throw new MalformedCredential('expected "Payment <base64url credential>"')
  let json: unknown
  try {
    json = JSON.parse(decodeText(match[1] as string))
  } catch {
    throw new MalformedCredential('credential is not base64url JSON')
  }
  const credential = credentialFromJson(json)
  if (typeof credential.challenge.request !== 'string')
    throw new MalformedCredential('challenge.request must be the base64url string it was issued as')
  return credential
}

export function formatAuthorization(credential: Credential): string {
  return `Payment ${encodeText(JSON.stringify(credential))}`
}
