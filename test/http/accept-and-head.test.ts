/**
 * Two small promises (#36 item 7): `Accept` is read by media type and q-value, so a client that
 * refuses Markdown is sold JSON; and HEAD with a credential never offers a challenge (HEAD never
 * pays, and its body, which says so, is dropped: a challenge would invite a second payment).
 */
import { describe, expect, it } from 'vitest'
import { authorization, challengeFrom, get, token } from '../support/service.js'

const path = '/v1/fde-lessons?topic=retry'
/** The query the challenge for `accept` binds (the `opaque` names it). */
async function boundQuery(accept: string): Promise<string> {
  const opaque = challengeFrom(await get(path, { headers: { accept } })).opaque as
    | Record<string, unknown>
    | string
  const decoded =
    typeof opaque === 'string' ? JSON.parse(Buffer.from(opaque, 'base64url').toString('utf8')) : opaque
  return String((decoded as { query: string }).query)
}

describe('Accept', () => {
  // A q outside RFC 9110's grammar (negative, not a number, more than 1) leaves its range out.
  for (const accept of [
    'application/json, text/markdown;q=0',
    'text/markdown;q=0',
    'text/markdown-extra',
    'text/markdown;q=-1',
    'text/markdown;q=abc',
    'text/markdown;q=2',
  ])
    it(`behavior: "${accept}" refuses Markdown, so the challenge is for JSON`, async () => {
      expect(await boundQuery(accept)).not.toMatch(/format=/)
    })

  for (const accept of ['text/markdown', 'text/markdown;q=0.9, application/json;q=0.5', 'TEXT/Markdown'])
    it(`behavior: "${accept}" prefers Markdown, so the challenge is for agents-md`, async () => {
      expect(await boundQuery(accept)).toMatch(/format=agents-md/)
    })

  it('behavior: JSON preferred over Markdown is JSON', async () => {
    expect(await boundQuery('text/markdown;q=0.4, application/json')).not.toMatch(/format=/)
  })
})

describe('HEAD with a credential', () => {
  it('error: gets no challenge, and leaves the credential to pay its GET', async () => {
    const challenge = challengeFrom(await get(path))
    const auth = { authorization: authorization(challenge, { spt: token() }) }
    const head = await get(path, { method: 'HEAD', headers: auth })
    expect(head.status).not.toBe(200)
    expect(head.headers.get('www-authenticate')).toBeNull()
    expect((await get(path, { headers: auth })).status).toBe(200)
  })
})

describe('fact names', () => {
  it('refusal: a fact named like an Object member ("constructor") is an unknown fact, given once', async () => {
    const r = await get('/v1/fde-preship-checklist?action=deploy&constructor=1')
    expect(r.status).toBe(400)
    const body = (await r.json()) as { detail?: string }
    expect(body.detail).not.toMatch(/more than once/)
    expect(body.detail).toMatch(/constructor/)
  })
})
