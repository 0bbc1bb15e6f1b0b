/**
 * The gateway's encoder, parser and challenge-id HMAC against the MPP conformance vectors,
 * run inside workerd (the runtime the gateway ships on).
 */
import { describe, expect, it } from 'vitest'
import { AuthParamsError } from '../../gateway/payment/auth-params.js'
import { type Challenge, formatChallenge, parseChallenge } from '../../gateway/payment/challenge.js'
import { challengeId } from '../../gateway/payment/challenge-id.js'
import {
  formatAuthorization,
  MalformedCredential,
  parseAuthorization,
} from '../../gateway/payment/credential.js'
import { decodeText, EncodingError, encodeText } from '../../schema/base64url.js'
import { canonicalize } from '../../schema/jcs.js'
import authorization from '../fixtures/mpp/authorization.json'
import base64url from '../fixtures/mpp/base64url.json'
import ids from '../fixtures/mpp/challenge-id.json'
import wwwAuthenticate from '../fixtures/mpp/www-authenticate.json'

type Expectation = boolean | { success: false; error_type: string } | undefined
interface Scenario {
  name: string
  adapters?: string[]
  tests?: Record<string, Expectation>
  [key: string]: unknown
}

/** Scenarios meant for every SDK or for the TypeScript adapter. */
const ours = (scenarios: Scenario[]) =>
  scenarios.filter((s) => !s.adapters || s.adapters.includes('typescript'))
const wire = (s: Scenario) => {
  const w = s.wire as string | { prefix: string; repeat: string; count: number }
  return typeof w === 'string' ? w : `${w.prefix}${w.repeat.repeat(w.count)}`
}

/** The challenge object with its request encoded the way it travels. */
function toChallenge(object: Record<string, unknown>): Challenge {
  return { ...object, request: encodeText(canonicalize(object.request)) } as Challenge
}

describe('base64url vectors', () => {
  for (const s of ours(base64url.scenarios as Scenario[])) {
    const parse = s.tests?.parse
    it(`behavior: ${s.name}`, () => {
      if (parse === true) expect(decodeText(s.encoded as string)).toBe(s.decoded)
      if (typeof parse === 'object') expect(() => decodeText(s.encoded as string)).toThrow(EncodingError)
      if (s.tests?.format === true) expect(encodeText(s.decoded as string)).toBe(s.encoded)
      if (s.tests?.roundtrip === true) expect(decodeText(encodeText(s.decoded as string))).toBe(s.decoded)
    })
  }
})

describe('WWW-Authenticate vectors', () => {
  for (const s of ours(wwwAuthenticate.scenarios as Scenario[])) {
    it(`behavior: ${s.name}`, () => {
      const { parse, format, roundtrip } = s.tests ?? {}
      const object = s.object as Record<string, unknown> | undefined
      if (parse === true) {
        const parsed = parseChallenge(wire(s))
        expect({ ...parsed.challenge, request: parsed.request }).toEqual(object)
      }
      if (typeof parse === 'object') expect(() => parseChallenge(wire(s))).toThrow(AuthParamsError)
      if (format === true && object) {
        const reparsed = parseChallenge(formatChallenge(toChallenge(object)))
        expect({ ...reparsed.challenge, request: reparsed.request }).toEqual(object)
        expect(parseChallenge(formatChallenge(toChallenge(object))).challenge).toEqual(
          parseChallenge(wire(s)).challenge,
        )
      }
      if (typeof format === 'object' && object)
        expect(() => formatChallenge(toChallenge(object))).toThrow(AuthParamsError)
      if (roundtrip === true && object) expect(formatChallenge(toChallenge(object))).toBe(wire(s))
    })
  }
})

describe('Authorization vectors', () => {
  for (const s of ours(authorization.scenarios as Scenario[])) {
    it(`behavior: ${s.name}`, () => {
      const { parse, format } = s.tests ?? {}
      const object = s.object as
        | { challenge: Record<string, unknown>; payload: Record<string, unknown> }
        | undefined
      const decoded = (c: ReturnType<typeof parseAuthorization>) => ({
        ...c,
        challenge: { ...c.challenge, request: JSON.parse(decodeText(c.challenge.request as string)) },
      })
      if (parse === true) expect(decoded(parseAuthorization(wire(s)))).toEqual(object)
      if (typeof parse === 'object') expect(() => parseAuthorization(wire(s))).toThrow(MalformedCredential)
      if (format === true && object) {
        const credential = { ...object, challenge: toChallenge(object.challenge) }
        expect(decoded(parseAuthorization(formatAuthorization(credential)))).toEqual(object)
      }
    })
  }
})

describe('challenge-id vectors', () => {
  for (const s of ours(ids.scenarios as Scenario[])) {
    const input = s.input as Record<string, unknown> & { secretKey: string; request: unknown }
    const fields = () => ({
      realm: input.realm as string,
      method: input.method as string,
      intent: input.intent as string,
      request: encodeText(canonicalize(input.request)),
      expires: input.expires as string | undefined,
      digest: input.digest as string | undefined,
      opaque: input.opaque as string | undefined,
      header: input.header as string | undefined,
    })
    it(`behavior: ${s.name}`, async () => {
      if (s.expected !== undefined) expect(await challengeId(input.secretKey, fields())).toBe(s.expected)
      else await expect(challengeId(input.secretKey, fields())).rejects.toThrow(RangeError)
    })
  }
})
