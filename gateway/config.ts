/**
 * Reads and checks the payment configuration once per isolate. A deployed gateway refuses to
 * take payments with the local processor stand-in, a loopback processor or a missing secret.
 */
import { CHALLENGE_TTL_MS, PROCESSOR_TIMEOUT_MS, STANDIN_SECRET } from '../schema/config.js'

export { CHALLENGE_TTL_MS }

import type { Env } from './env.js'
import { MIN_SECRET_BYTES } from './payment/challenge-id.js'
import { readEvmConfig } from './payment/evm/config.js'
import type { PaymentConfig } from './payment/methods.js'
import type { ReceiptKeys } from './payment/signed-receipt.js'
import { SEARCH_INDEX_LAG_MS } from './payment/stripe/processor.js'

export type ConfigResult = { ok: true; config: PaymentConfig } | { ok: false; problems: string[] }

let cached: { env: Env; result: ConfigResult } | undefined

export function paymentConfig(env: Env): ConfigResult {
  if (cached?.env === env) return cached.result
  const result = readConfig(env)
  cached = { env, result }
  return result
}

function readConfig(env: Env): ConfigResult {
  const problems: string[] = []
  const secret = env.PAYMENT_HMAC_SECRET ?? ''
  if (new TextEncoder().encode(secret).length < MIN_SECRET_BYTES)
    problems.push(`PAYMENT_HMAC_SECRET must be set to at least ${MIN_SECRET_BYTES} bytes`)
  if (!env.PROCESSOR_SECRET) problems.push('PROCESSOR_SECRET is not set')
  if (!env.PROCESSOR_URL) problems.push('PROCESSOR_URL is not set')
  const receipts = readReceiptKeys(env)
  if (typeof receipts === 'string') problems.push(receipts)
  if (env.ENVIRONMENT !== 'local') {
    const hostname = safeUrl(env.PROCESSOR_URL)?.hostname
    if (env.PROCESSOR_SECRET === STANDIN_SECRET || !hostname || /^(127\.|localhost$|\[::1\]$)/.test(hostname))
      problems.push(
        'a deployed gateway needs the real processor (PROCESSOR_URL, PROCESSOR_SECRET), not the local stand-in',
      )
  }
  const evm = readEvmConfig(env, env.ENVIRONMENT !== 'local')
  if (Array.isArray(evm)) problems.push(...evm)
  if (problems.length || typeof receipts === 'string' || Array.isArray(evm)) return { ok: false, problems }
  return {
    ok: true,
    config: {
      realm: env.REALM || (safeUrl(env.BASE_URL)?.host ?? 'localhost'),
      hmacSecret: secret,
      networkId: env.STRIPE_NETWORK_ID,
      processor: {
        url: env.PROCESSOR_URL.replace(/\/$/, ''),
        secret: env.PROCESSOR_SECRET as string,
        timeoutMs: Number(env.PROCESSOR_TIMEOUT_MS ?? PROCESSOR_TIMEOUT_MS),
        searchLagMs: Number(env.PROCESSOR_SEARCH_LAG_MS ?? SEARCH_INDEX_LAG_MS),
      },
      challengeTtlMs: CHALLENGE_TTL_MS,
      receipts,
      ...(evm ? { evm } : {}),
    },
  }
}

const B64URL_32_BYTES = /^[A-Za-z0-9_-]{43}$/

/**
 * The receipt signing key (a private Ed25519 JWK with kid, secret RECEIPT_SIGNING_KEY) and the
 * retired public keys still published (var RECEIPT_RETIRED_KEYS: [{kid, x, retired_on}]).
 * A gateway without a valid key takes no payments, as without its HMAC secret.
 */
function readReceiptKeys(env: Env): ReceiptKeys | string {
  const wrong = 'RECEIPT_SIGNING_KEY must be a private Ed25519 JWK with kid (kty OKP, crv Ed25519, d, x)'
  let jwk: Record<string, unknown>
  try {
    jwk = JSON.parse(env.RECEIPT_SIGNING_KEY ?? '') as Record<string, unknown>
  } catch {
    return wrong
  }
  const { kty, crv, d, x, kid } = jwk ?? {}
  if (kty !== 'OKP' || crv !== 'Ed25519' || typeof kid !== 'string' || !kid) return wrong
  if (typeof d !== 'string' || typeof x !== 'string' || !B64URL_32_BYTES.test(d) || !B64URL_32_BYTES.test(x))
    return wrong
  let retired: { kid: string; x: string; retired_on: string }[] = []
  try {
    retired = JSON.parse(env.RECEIPT_RETIRED_KEYS || '[]')
  } catch {
    return 'RECEIPT_RETIRED_KEYS must be a JSON array of {kid, x, retired_on}'
  }
  if (
    !Array.isArray(retired) ||
    !retired.every((k) => B64URL_32_BYTES.test(k?.x) && k.kid && !Number.isNaN(Date.parse(k.retired_on)))
  )
    return 'RECEIPT_RETIRED_KEYS must be a JSON array of {kid, x, retired_on}'
  return { signing: { kty, crv, d, x, kid }, retired, issuer: env.BASE_URL }
}

function safeUrl(url: string | undefined): URL | null {
  try {
    return url ? new URL(url) : null
  } catch {
    return null
  }
}
