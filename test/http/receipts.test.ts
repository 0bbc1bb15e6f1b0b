/**
 * Signed receipts: every paid answer, HTTP and MCP, carries a JWS that verifies offline against
 * the served key set and binds the payment, the resource and the digest of the bytes delivered.
 */
import { createHash } from 'node:crypto'
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose'
import { Receipt } from 'mppx'
import { describe, expect, it } from 'vitest'
import { keySet, signedReceipt } from '../../gateway/payment/signed-receipt.js'
import { RECEIPT_CLAIMS, RETIRED_KEY_DAYS } from '../../schema/receipt-claims.js'
import { readmeSnippet, readmeVerifyReceipt, type VerifyToolReceipt } from '../support/readme-snippet.js'
import { base, decodeReceipt, get, payOnce, token } from '../support/service.js'

const jwks = async () => (await (await get('/.well-known/jwks.json')).json()) as JSONWebKeySet
const sha256 = (text: string) => `sha-256=:${createHash('sha256').update(text).digest('base64')}:`

async function claimsOf(jws: string, keys: JSONWebKeySet) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(keys))
  expect(protectedHeader).toMatchObject({ alg: 'EdDSA', kid: expect.any(String) })
  return JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>
}

describe('signed receipts over HTTP', () => {
  it('behavior: the receipt verifies against the served key set and binds payment, resource and bytes', async () => {
    const asked = Math.floor(Date.now() / 1000)
    const { paid, challenge } = await payOnce('/v1/fde-lessons?topic=RETRY')
    const answered = Math.ceil(Date.now() / 1000)
    expect(paid.status).toBe(200)
    const body = await paid.text()
    const receipt = decodeReceipt(paid.headers.get('payment-receipt'))
    const claims = await claimsOf(receipt.jws as string, await jwks())
    expect(Object.keys(claims).sort()).toEqual(Object.keys(RECEIPT_CLAIMS).sort())
    expect(claims).toMatchObject({
      iss: base(),
      challengeId: challenge.id,
      reference: receipt.reference,
      method: 'stripe',
      amount: '50',
      currency: 'usd',
      resource: 'GET /v1/fde-lessons?topic=retry',
      digest: sha256(body),
    })
    expect(paid.headers.get('content-digest')).toBe(sha256(body))
    // Issued when the payment settled: while the test's calls were open, however long they took.
    expect(claims.iat).toBeGreaterThanOrEqual(asked)
    expect(claims.iat).toBeLessThanOrEqual(answered)
  })

  it('behavior: mppx still parses the receipt, and the header stays far under common limits', async () => {
    const { paid } = await payOnce('/v1/fde-playbooks')
    const parsed = Receipt.fromResponse(paid)
    expect(parsed).toMatchObject({ status: 'success', method: 'stripe' })
    // 8 KiB is the smallest common limit for one header line (nginx); stay under a quarter of it.
    expect((paid.headers.get('payment-receipt') ?? '').length).toBeLessThan(8192 / 4)
  })

  it('error: a tampered payload or signature does not verify', async () => {
    const { paid } = await payOnce('/v1/fde-playbooks')
    const jws = decodeReceipt(paid.headers.get('payment-receipt')).jws as string
    const [header, payload, signature] = jws.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    const forged = Buffer.from(JSON.stringify({ ...claims, amount: '1' })).toString('base64url')
    const keys = await jwks()
    await expect(claimsOf(`${header}.${forged}.${signature}`, keys)).rejects.toThrow()
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`
    await expect(claimsOf(`${header}.${payload}.${flipped}`, keys)).rejects.toThrow()
  })

  it('error: a 402, a refusal or a 400 carries no receipt and no digest', async () => {
    const unpaid = await get('/v1/fde-playbooks')
    const refused = await get('/v1/fde-playbooks', {
      headers: { authorization: 'Payment not-a-credential' },
    })
    const bad = await get('/v1/pricing/changes?since=yesterday')
    for (const r of [unpaid, refused, bad]) {
      expect(r.status).not.toBe(200)
      expect(r.headers.get('payment-receipt')).toBeNull()
      expect(r.headers.get('content-digest')).toBeNull()
    }
  })

  it('behavior: the README verification snippet, run as written, verifies a real receipt', async () => {
    const verifyReceipt = await readmeVerifyReceipt()
    const { paid } = await payOnce('/v1/pricing?category=voice-agent')
    const body = await paid.text()
    const claims = await verifyReceipt(await jwks(), paid, body)
    expect(claims.resource).toBe('GET /v1/pricing?category=voice-agent')
    await expect(verifyReceipt(await jwks(), paid, `${body} `)).rejects.toThrow(/not the ones/)
    // The same receipt shown for another request (another category) is refused by the snippet.
    const other = await get('/v1/pricing?category=coding-agent')
    const misplaced = new Response(body, { headers: paid.headers })
    Object.defineProperty(misplaced, 'url', { value: other.url })
    await expect(verifyReceipt(await jwks(), misplaced, body)).rejects.toThrow(/another category/)
  })

  it('behavior: the README snippet accepts a genuine receipt for facts sent in another spelling, and no other situation', async () => {
    const verifyReceipt = await readmeVerifyReceipt()
    // Spellings the service reads as the canonical ones: a leading zero, capitals, repeated actions.
    const situation = 'emergency=False&stateful=false&one_way_changes=false'
    const path = '/v1/fde-preship-checklist'
    const { paid } = await payOnce(`${path}?action=schema-change&action=Deploy&targets=03&${situation}`)
    expect(paid.status).toBe(200)
    const body = await paid.text()
    const claims = await verifyReceipt(await jwks(), paid, body)
    // The receipt names the canonical spelling, not the one sent.
    expect(claims.resource).toMatch(/[?&]action=deploy%2Cschema-change&/)
    expect(claims.resource).toMatch(/[?&]targets=3$/)
    // Another number of targets or another action is another situation: the receipt is refused for it.
    for (const [query, name] of [
      [`action=deploy,schema-change&targets=4&${situation}`, 'targets'],
      [`action=deploy&targets=3&${situation}`, 'action'],
    ] as const) {
      const misplaced = new Response(body, { headers: paid.headers })
      Object.defineProperty(misplaced, 'url', { value: `${base()}${path}?${query}` })
      await expect(verifyReceipt(await jwks(), misplaced, body)).rejects.toThrow(`another ${name}`)
    }
  })
})

interface McpMeta {
  'org.paymentauth/payment-required': { challenges: Record<string, unknown>[] }
  'org.paymentauth/receipt': Record<string, string>
}

describe('signed receipts over MCP', () => {
  it('behavior: a paid tool result carries a receipt that verifies and binds the tool, arguments, text and structured content', async () => {
    const mcp = (body: unknown) =>
      fetch(`${base()}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ result: { content: { text: string }[]; _meta: McpMeta } }>)
    const call = (meta?: unknown) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'fde_lessons_full', arguments: { topic: 'Deploy' }, ...(meta ? { _meta: meta } : {}) },
    })
    const unpaid = await mcp(call())
    const challenge = unpaid.result._meta['org.paymentauth/payment-required'].challenges[0] as { id: string }
    const paid = await mcp(call({ 'org.paymentauth/credential': { challenge, payload: { spt: token() } } }))
    const receipt = paid.result._meta['org.paymentauth/receipt']
    const claims = await claimsOf(receipt.jws as string, await jwks())
    expect(claims).toMatchObject({
      challengeId: challenge.id,
      reference: receipt.reference,
      resource: 'mcp:fde_lessons_full?topic=deploy',
    })
    // The README's MCP snippet, run as written, checks the digest over text and structured content.
    const { verifyToolReceipt } = await readmeSnippet<{ verifyToolReceipt: VerifyToolReceipt }>(
      'receipt-verify-mcp',
      'readme-verify-tool-receipt.mjs',
    )
    const result = paid.result as unknown as { structuredContent: Record<string, unknown> }
    const tool = 'fde_lessons_full'
    expect((await verifyToolReceipt(await jwks(), result, base(), tool)).challengeId).toBe(challenge.id)
    // Changing only the structured content breaks it: the digest covers what clients read there too.
    const altered = { ...result, structuredContent: { ...result.structuredContent, extra: 1 } }
    await expect(verifyToolReceipt(await jwks(), altered, base(), tool)).rejects.toThrow(/not the one/)
    // A receipt is checked against the call made: another tool or another service is refused.
    await expect(verifyToolReceipt(await jwks(), result, base(), 'fde_playbook')).rejects.toThrow(
      /another tool/,
    )
    await expect(verifyToolReceipt(await jwks(), result, 'https://elsewhere.example', tool)).rejects.toThrow(
      /another issuer/,
    )
  })
})

describe('key rotation', () => {
  it('behavior: a receipt signed with the previous key still verifies after rotation, until its period ends', async () => {
    const keyPair = async (kid: string) => {
      const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, [
        'sign',
        'verify',
      ])) as CryptoKeyPair
      const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as { d: string; x: string }
      return { kty: 'OKP' as const, crv: 'Ed25519' as const, d: jwk.d, x: jwk.x, kid }
    }
    const old = await keyPair('2026-a')
    const current = await keyPair('2026-b')
    const receipt = {
      status: 'success' as const,
      method: 'stripe' as const,
      timestamp: new Date().toISOString(),
      reference: 'pi_example',
      challengeId: 'ch_example',
      amount: '50',
      currency: 'usd',
    }
    const before = { signing: old, retired: [], issuer: 'https://rules.example' }
    const { receipt: signed } = await signedReceipt(before, receipt, 'GET /v1/fde-playbooks', '{}')
    const now = Date.now()
    const rotated = {
      signing: current,
      retired: [{ kid: old.kid, x: old.x, retired_on: new Date(now).toISOString() }],
      issuer: before.issuer,
    }
    const published = keySet(rotated, now) as unknown as JSONWebKeySet
    expect(published.keys.map((k) => k.kid)).toEqual(['2026-b', '2026-a'])
    expect(published.keys.every((k) => !('d' in k))).toBe(true)
    expect((await claimsOf(signed.jws as string, published)).reference).toBe('pi_example')
    // Past its stated period the retired key leaves the set, and its receipts no longer verify here.
    const later = keySet(
      rotated,
      now + (RETIRED_KEY_DAYS + 1) * 24 * 60 * 60 * 1000,
    ) as unknown as JSONWebKeySet
    expect(later.keys.map((k) => k.kid)).toEqual(['2026-b'])
    await expect(claimsOf(signed.jws as string, later)).rejects.toThrow()
  })
})

describe('the key set', () => {
  it('behavior: /.well-known/jwks.json publishes public members only', async () => {
    const r = await get('/.well-known/jwks.json')
    expect(r.status).toBe(200)
    const set = (await r.json()) as { keys: Record<string, string>[] }
    expect(set.keys.length).toBeGreaterThan(0)
    for (const key of set.keys) {
      expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' })
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x'])
    }
  })
})
