/**
 * Payment-Authorization (draft-httpauth-payment-01 §5.2, §11.10, App. B.4). This service's challenges
 * carry no `header` parameter, so a credential there never pays; beside another payment it makes
 * two, and several payments are a 400 with nothing claimed or charged. Every answer the Worker gives
 * a request carrying the field is kept out of shared caches.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../schema/routes.js'
import { cardCredential, decodeReceipt, get, processorLedger, publicDir } from '../support/service.js'

const PATH = '/v1/fde-lessons?topic=deploy'

async function expectSeveral(r: Response, field: string) {
  expect(r.status).toBe(400)
  expect(r.headers.get('content-type')).toBe('application/problem+json')
  expect(r.headers.get('www-authenticate')).toBeNull()
  expect(r.headers.get('payment-receipt')).toBeNull()
  const body = (await r.json()) as Record<string, unknown>
  expect(body).toMatchObject({ status: 400, field, retryable: 'same-credential' })
  expect(body.detail).toMatch(/Payment-Authorization is never read/)
}

describe('several Payment credentials in one request', () => {
  it('error: two credentials joined in Authorization are a 400 naming Authorization, nothing charged', async () => {
    const first = await cardCredential(PATH)
    const second = await cardCredential(PATH)
    const before = await processorLedger()
    await expectSeveral(
      await get(PATH, { headers: { authorization: `${first.authorization}, ${second.authorization}` } }),
      'Authorization',
    )
    expect((await processorLedger()).calls).toBe(before.calls)
  })

  it('error: Authorization and Payment-Authorization both with a credential is a 400, nothing claimed', async () => {
    const paying = await cardCredential(PATH)
    const other = await cardCredential(PATH)
    const before = await processorLedger()
    await expectSeveral(
      await get(PATH, {
        headers: { authorization: paying.authorization, 'payment-authorization': other.authorization },
      }),
      'Payment-Authorization',
    )
    expect((await processorLedger()).calls).toBe(before.calls)
    // Nothing was claimed: the same credential alone is then judged, and pays.
    const paid = await get(PATH, paying.auth)
    expect(paid.status).toBe(200)
    expect(decodeReceipt(paid.headers.get('payment-receipt')).challengeId).toBe(paying.challenge.id)
  })

  it('behavior: a credential in Payment-Authorization alone never pays: 402 with fresh challenges', async () => {
    const { authorization } = await cardCredential(PATH)
    const before = await processorLedger()
    const r = await get(PATH, { headers: { 'payment-authorization': authorization } })
    expect(r.status).toBe(402)
    expect(r.headers.get('www-authenticate')).toMatch(/^Payment /)
    expect(((await r.json()) as { type: string }).type).toMatch(/\/payment-required$/)
    expect((await processorLedger()).calls).toBe(before.calls)
  })
})

/** The GET routes the Worker answers (the rest are files the asset store serves before it runs). */
const workerRoutes = ROUTES.filter(
  (r) => r.method === 'GET' && !statSync(join(publicDir(), r.path), { throwIfNoEntry: false })?.isFile(),
)

const sharedCacheMayStore = (cacheControl: string | null) =>
  !(cacheControl ?? '').split(',').some((d) => ['private', 'no-store'].includes(d.trim().toLowerCase()))

describe('Cache-Control when a request carries Payment-Authorization', () => {
  it('behavior: every answer of the Worker is private or no-store, free routes included', async () => {
    expect(workerRoutes.map((r) => r.path)).toContain('/v1/catalogue')
    const { authorization } = await cardCredential(PATH)
    for (const route of workerRoutes) {
      const r = await get(route.path, { headers: { 'payment-authorization': authorization } })
      await r.arrayBuffer()
      expect(sharedCacheMayStore(r.headers.get('cache-control')), `${route.path}: ${r.status}`).toBe(false)
    }
  })

  it('behavior: a free answer keeps its max-age, made private; without the field it stays public', async () => {
    const { authorization } = await cardCredential(PATH)
    const carrying = await get('/v1/catalogue', { headers: { 'payment-authorization': authorization } })
    expect(carrying.status).toBe(200)
    expect(carrying.headers.get('cache-control')).toBe('private, max-age=300')
    const plain = await get('/v1/catalogue')
    expect(plain.headers.get('cache-control')).toBe('public, max-age=300')
    // Any value of the field counts, a credential or not.
    const odd = await get('/v1/pricing/index', { headers: { 'payment-authorization': 'x' } })
    expect(sharedCacheMayStore(odd.headers.get('cache-control'))).toBe(false)
  })
})
