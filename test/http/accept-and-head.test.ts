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
  for (const accept of ['application/json, text/markdown;q=0', 'text/markdown;q=0', 'text/markdown-extra'])
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
