/**
 * The operators' payment smoke (scripts/deploy/smoke-payment.ts) pays one paid route end to end against
 * the running service and the processor stand-in, with a test token minted through the stand-in's
 * copy of Stripe's test helper; with a live key it sends nothing at all.
 */
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { STANDIN_SECRET } from '../../schema/config.js'
import {
  checkTestKey,
  KeyRefused,
  smokePayment,
  smokePaymentArgs,
} from '../../scripts/deploy/smoke-payment.js'
import { base, processorLedger } from '../support/service.js'

describe('payment smoke (npm run smoke:payment)', () => {
  it('behavior: with a test key it mints a test token and pays a paid route end to end, once', async () => {
    const before = await processorLedger()
    const checks = await smokePayment(base(), { key: STANDIN_SECRET, processorUrl: inject('processorUrl') })
    expect(checks.filter((c) => !c.ok)).toEqual([])
    expect(checks.map((c) => c.name)).toEqual([
      '402 challenge /v1/fde-playbooks',
      'test shared payment token minted',
      'paid /v1/fde-playbooks',
      'the same answer again under the Idempotency-Key, no second charge',
    ])
    const after = await processorLedger()
    // One charge, by the minted token, and the repeat charged nothing.
    const charged = Object.entries(after.succeeded).filter(([spt]) => !(spt in before.succeeded))
    expect(charged).toHaveLength(1)
    const [spt, intent] = charged[0] as [string, string]
    expect(checks[1]?.detail).toContain(spt)
    expect(checks[2]?.detail).toContain(intent)
    expect(after.calls - before.calls).toBe(1)
  })

  it('error: a live key is refused before any request leaves, to the service or the processor', async () => {
    let requests = 0
    const anything = createServer((_req, res) => {
      requests++
      res.end()
    })
    await new Promise<void>((resolve) => anything.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(anything.address() as AddressInfo).port}`
    try {
      for (const key of ['sk_live_51Abc', 'rk_live_51Abc', 'pk_test_51Abc', ''])
        await expect(smokePayment(url, { key, processorUrl: url })).rejects.toBeInstanceOf(KeyRefused)
      expect(requests).toBe(0)
    } finally {
      await new Promise((resolve) => anything.close(resolve))
    }
    expect(checkTestKey('rk_test_51Abc')).toBe('rk_test_51Abc')
  })

  it('error: the command exits 2 with a live key and says why, naming no request', async () => {
    const run = promisify(execFile)
    const failed = await run('npx', ['tsx', 'scripts/deploy/smoke-payment.ts', base()], {
      env: { ...process.env, STRIPE_SECRET_KEY: 'sk_live_51Abc' },
    }).catch((error: { code: number; stderr: string }) => error)
    expect('code' in failed && failed.code).toBe(2)
    expect((failed as { stderr: string }).stderr).toMatch(/live Stripe key.*refused before any call/)
  })

  it('behavior: the command line takes the base URL, the processor, a paid path and headers', () => {
    expect(
      smokePaymentArgs([
        'https://rules.example.org',
        '--processor',
        'http://127.0.0.1:9999',
        '--path',
        '/v1/pricing',
        '--header',
        'Cloudflare-Workers-Version-Overrides: rules-pricing-gateway="abc"',
      ]),
    ).toEqual({
      baseUrl: 'https://rules.example.org',
      options: {
        processorUrl: 'http://127.0.0.1:9999',
        path: '/v1/pricing',
        headers: { 'Cloudflare-Workers-Version-Overrides': 'rules-pricing-gateway="abc"' },
      },
    })
    expect(() => smokePaymentArgs([])).toThrow(/usage/)
  })

  it("behavior: the stand-in's test helper refuses a request without the parameters Stripe requires", async () => {
    const r = await fetch(`${inject('processorUrl')}/v1/test_helpers/shared_payment/granted_tokens`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${STANDIN_SECRET}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ payment_method: 'pm_card_visa' }),
    })
    expect(r.status).toBe(400)
    expect(((await r.json()) as { error: { message: string } }).error.message).toContain(
      'usage_limits[currency]',
    )
  })
})
