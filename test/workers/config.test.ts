/**
 * The payment configuration check, inside workerd: a deployed gateway refuses the local stand-in.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { paymentConfig } from '../../gateway/config.js'
import type { Env } from '../../gateway/env.js'
import { STANDIN_SECRET } from '../../schema/config.js'

const SECRET = 'x'.repeat(32)
let SIGNING_KEY = ''
beforeAll(async () => {
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey
  SIGNING_KEY = JSON.stringify({ ...jwk, kid: 'test-1' })
})
const env = (overrides: Partial<Env>): Env =>
  ({
    ENVIRONMENT: 'production',
    BASE_URL: 'https://rules.example',
    SITE_URL: 'https://rules.example/pricing/',
    REGISTER_URL: 'https://register.example/warn.csv',
    STRIPE_NETWORK_ID: 'profile_test',
    PROCESSOR_URL: 'https://api.stripe.com',
    PROCESSOR_SECRET: 'sk_live_example',
    PAYMENT_HMAC_SECRET: SECRET,
    RECEIPT_SIGNING_KEY: SIGNING_KEY,
    ...overrides,
  }) as Env

describe('paymentConfig', () => {
  it('behavior: a production gateway with a real processor and secrets is configured', () => {
    const result = paymentConfig(env({}))
    expect(result).toMatchObject({
      ok: true,
      config: { realm: 'rules.example', processor: { url: 'https://api.stripe.com' } },
    })
  })

  it('error: a production gateway refuses the stand-in secret, a loopback processor, missing secrets or no valid receipt key', () => {
    for (const overrides of [
      { PROCESSOR_SECRET: STANDIN_SECRET },
      { PROCESSOR_URL: 'http://127.0.0.1:8790' },
      { PROCESSOR_URL: 'http://localhost:8790' },
      { PROCESSOR_SECRET: undefined },
      { PAYMENT_HMAC_SECRET: 'too-short' },
      { RECEIPT_SIGNING_KEY: undefined },
      { RECEIPT_SIGNING_KEY: '{"kty":"OKP","crv":"Ed25519","x":"short","d":"short","kid":"k"}' },
      { RECEIPT_SIGNING_KEY: SIGNING_KEY.replace(/"kid":"test-1"/, '"kid":""') },
    ]) {
      const result = paymentConfig(env(overrides))
      expect(result.ok, JSON.stringify(overrides)).toBe(false)
    }
  })

  it('behavior: only a local gateway may use the stand-in', () => {
    const local = paymentConfig(
      env({ ENVIRONMENT: 'local', PROCESSOR_URL: 'http://127.0.0.1:8790', PROCESSOR_SECRET: STANDIN_SECRET }),
    )
    expect(local.ok).toBe(true)
  })
})
