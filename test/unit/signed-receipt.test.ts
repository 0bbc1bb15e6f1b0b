/**
 * A receipt is issued when its payment settled: signing the same answer to the same payment again
 * gives the same bytes, which is what lets a lost answer be re-sent with its original receipt.
 */
import { generateKeyPairSync } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { signedReceipt } from '../../gateway/payment/signed-receipt.js'

describe('signedReceipt', () => {
  afterEach(() => vi.useRealTimers())

  it('behavior: the same payment and the same bytes always give the same receipt, whenever signed', async () => {
    const jwk = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' })
    const keys = {
      signing: {
        kty: 'OKP' as const,
        crv: 'Ed25519' as const,
        d: jwk.d as string,
        x: jwk.x as string,
        kid: 'k1',
      },
      retired: [],
      issuer: 'https://rules.example',
    }
    const receipt = {
      status: 'success' as const,
      method: 'stripe' as const,
      timestamp: '2026-11-24T12:00:00.000Z',
      reference: 'pi_1',
      challengeId: 'ch_1',
      amount: '50',
      currency: 'usd',
    }
    const first = await signedReceipt(keys, receipt, 'GET /v1/fde-playbooks', '{"a":1}')
    // Signed again an hour later (the clock moved, not waited for): the bytes do not change.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 60 * 60 * 1000 })
    const again = await signedReceipt(keys, receipt, 'GET /v1/fde-playbooks', '{"a":1}')
    expect(again.receipt.jws).toBe(first.receipt.jws)
    const other = await signedReceipt(keys, receipt, 'GET /v1/fde-playbooks', '{"a":2}')
    expect(other.receipt.jws).not.toBe(first.receipt.jws)
  })
})
