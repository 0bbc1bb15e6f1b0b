/**
 * The payment smoke, for operators: with a Stripe test key, mint a test shared payment token
 * through Stripe's test helper (`POST /v1/test_helpers/shared_payment/granted_tokens`, test mode
 * only) and pay one paid route end to end: the 402 challenge, the credential, the 200 with a
 * receipt naming the PaymentIntent, and the same answer again under the request's Idempotency-Key
 * without a second charge. A live key is refused before any call. The suite runs it against the
 * processor stand-in (test/http/smoke-payment.test.ts); the deploy runs it against the new versions
 * when the gateway's PROCESSOR_SECRET is a test key (scripts/deploy/deploy-stage.ts smoke).
 *
 *   STRIPE_SECRET_KEY=sk_test_… npm run smoke:payment -- <base-url> [--processor <url>] [--path <paid path>] [--header 'Name: value']...
 *
 * --processor defaults to https://api.stripe.com; --path to /v1/fde-playbooks. Exits 2 on a live or
 * missing key (nothing sent), 1 when a check fails, after printing every check.
 */
import { randomUUID } from 'node:crypto'
import { Challenge, Credential } from 'mppx'
import { STRIPE_VERSION } from '../../gateway/payment/stripe/processor.js'
import { addHeader, type SmokeCheck, smokeFetch } from './smoke.js'

export const STRIPE_API = 'https://api.stripe.com'
export const DEFAULT_PAID_PATH = '/v1/fde-playbooks'
/** Stripe's test card, as a PaymentMethod every test-mode account has. */
const TEST_PAYMENT_METHOD = 'pm_card_visa'

export interface PaymentSmokeOptions {
  /** A Stripe test key (sk_test_… or rk_test_…). */
  key: string
  processorUrl?: string
  path?: string
  /** Headers sent on every request to the service (version overrides in the deploy). */
  headers?: Record<string, string>
  /** Per-request timeout, default 30 s (a real charge takes a few seconds). */
  timeoutMs?: number
}

/** A key that would move real money, or that is not a Stripe test key at all: nothing is sent. */
export class KeyRefused extends Error {}

/** Whether a Stripe key is a test key; a live one (secret or restricted) is refused by name. */
export function checkTestKey(key: string | undefined): string {
  if (!key)
    throw new KeyRefused('no Stripe key: set STRIPE_SECRET_KEY to a test key (sk_test_… or rk_test_…)')
  if (/^(sk|rk)_live_/.test(key))
    throw new KeyRefused(
      'a live Stripe key (sk_live_/rk_live_) would charge a real card: refused before any call',
    )
  if (!/^(sk|rk)_test_/.test(key))
    throw new KeyRefused('the Stripe key is neither sk_test_… nor rk_test_…: refused before any call')
  return key
}

export async function smokePayment(baseUrl: string, options: PaymentSmokeOptions): Promise<SmokeCheck[]> {
  const key = checkTestKey(options.key)
  const base = baseUrl.replace(/\/+$/, '')
  const processor = (options.processorUrl ?? STRIPE_API).replace(/\/+$/, '')
  const path = options.path ?? DEFAULT_PAID_PATH
  const timeout = options.timeoutMs ?? 30_000
  const request = smokeFetch(base, options.headers, timeout)
  const call = (init: RequestInit = {}) => request(path, init)
  const checks: SmokeCheck[] = []
  const expect = (condition: unknown, problem: string) => {
    if (!condition) throw new Error(problem)
  }
  /** Runs one check; a failed check ends the smoke, since each step needs the one before. */
  const step = async <T>(name: string, run: () => Promise<{ detail: string; value: T }>) => {
    try {
      const { detail, value } = await run()
      checks.push({ name, ok: true, detail })
      return value
    } catch (error) {
      checks.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) })
      return undefined
    }
  }

  const challenge = await step(`402 challenge ${path}`, async () => {
    const r = await call()
    expect(r.status === 402, `status ${r.status}`)
    const c = Challenge.fromResponse(r)
    return { detail: `challenge ${c.id}`, value: c }
  })
  if (!challenge) return checks
  const { amount, currency } = chargeOf(challenge.request)
  const spt = await step('test shared payment token minted', async () => {
    const r = await fetch(`${processor}/v1/test_helpers/shared_payment/granted_tokens`, {
      method: 'POST',
      signal: AbortSignal.timeout(timeout),
      headers: {
        authorization: `Bearer ${key}`,
        'stripe-version': STRIPE_VERSION,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        payment_method: TEST_PAYMENT_METHOD,
        'usage_limits[currency]': currency,
        'usage_limits[max_amount]': amount,
        'usage_limits[expires_at]': String(Math.floor(Date.now() / 1000) + 3600),
      }),
    })
    const body = (await r.json()) as { id?: string; error?: { message?: string } }
    expect(
      r.status === 200 && body.id?.startsWith('spt_'),
      `status ${r.status}: ${body.error?.message ?? ''}`,
    )
    return { detail: `${body.id} for ${amount} ${currency}`, value: body.id as string }
  })
  if (!spt) return checks
  const paying = {
    authorization: Credential.serialize(Credential.from({ challenge, payload: { spt } })),
    'idempotency-key': `smoke-${randomUUID()}`,
  }
  const paid = await step(`paid ${path}`, async () => {
    const r = await call({ headers: paying })
    const body = await r.text()
    expect(r.status === 200, `status ${r.status}: ${body.slice(0, 300)}`)
    const receipt = JSON.parse(
      Buffer.from(r.headers.get('payment-receipt') ?? '', 'base64url').toString('utf8'),
    )
    expect(receipt.status === 'success', `receipt status ${receipt.status}`)
    expect(/^pi_/.test(receipt.reference), `receipt reference ${receipt.reference}`)
    expect(receipt.challengeId === challenge.id, 'the receipt names another challenge')
    return {
      detail: `${body.length} bytes, PaymentIntent ${receipt.reference}`,
      value: { body, receipt: r.headers.get('payment-receipt') },
    }
  })
  if (!paid) return checks
  await step('the same answer again under the Idempotency-Key, no second charge', async () => {
    const r = await call({ headers: paying })
    const body = await r.text()
    expect(r.status === 200, `status ${r.status}`)
    expect(body === paid.body, 'another body')
    expect(r.headers.get('payment-receipt') === paid.receipt, 'another receipt')
    return { detail: 'same bytes and receipt', value: true }
  })
  return checks
}

/** The amount (smallest unit) and currency a challenge asks for. */
function chargeOf(request: unknown): { amount: string; currency: string } {
  const decoded =
    typeof request === 'string' ? JSON.parse(Buffer.from(request, 'base64url').toString('utf8')) : request
  const { amount, currency } = (decoded ?? {}) as { amount?: unknown; currency?: unknown }
  return { amount: String(amount), currency: String(currency) }
}

/** Parses the command line: a base URL, then --processor, --path and repeated --header. */
export function smokePaymentArgs(argv: string[]): {
  baseUrl: string
  options: Omit<PaymentSmokeOptions, 'key'>
} {
  const headers: Record<string, string> = {}
  const options: Omit<PaymentSmokeOptions, 'key'> = { headers }
  let baseUrl: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--processor') options.processorUrl = argv[++i]
    else if (arg === '--path') options.path = argv[++i]
    else if (arg === '--header') addHeader(headers, argv[++i])
    else if (!baseUrl) baseUrl = arg
    else throw new Error(`unexpected argument ${arg}`)
  }
  if (!baseUrl || !/^https?:\/\//.test(baseUrl))
    throw new Error(
      'usage: STRIPE_SECRET_KEY=sk_test_… smoke-payment.ts <base-url> [--processor url] [--path paid-path] [--header "Name: value"]',
    )
  return { baseUrl, options }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let key: string
  try {
    // The key is judged before the arguments or anything else: a live key never reaches a request.
    key = checkTestKey(process.env.STRIPE_SECRET_KEY)
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(2)
  }
  const { baseUrl, options } = smokePaymentArgs(process.argv.slice(2))
  const checks = await smokePayment(baseUrl, { ...options, key })
  for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`)
  const failed = checks.filter((c) => !c.ok).length
  console.log(`${checks.length - failed}/${checks.length} payment checks passed against ${baseUrl}`)
  process.exit(failed ? 1 : 0)
}
