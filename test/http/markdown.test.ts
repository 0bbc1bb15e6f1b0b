/**
 * Rules in the form coding agents load: `format=agents-md` (or `Accept: text/markdown`) and
 * `format=skill` on the three rules routes and their MCP tools, paid once per representation.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { readmeVerifyReceipt } from '../support/readme-snippet.js'
import {
  authorization,
  base,
  challengeFrom,
  get,
  legacyToolCall,
  payOnce,
  token,
} from '../support/service.js'

const ROUTINE = 'action=deploy&emergency=false&targets=3&stateful=false&one_way_changes=false'
const jwks = async () => (await get('/.well-known/jwks.json')).json()

describe('Markdown answers over HTTP', () => {
  for (const path of ['/v1/fde-lessons', '/v1/fde-playbooks', `/v1/fde-preship-checklist?${ROUTINE}`])
    it(`behavior: ${path} in agents-md is Markdown whose receipt digest covers the Markdown bytes`, async () => {
      const sep = path.includes('?') ? '&' : '?'
      const { paid } = await payOnce(`${path}${sep}format=agents-md`)
      expect(paid.status).toBe(200)
      expect(paid.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      const body = await paid.text()
      // It opens with where it came from, then the document itself.
      expect(body.startsWith('> rules-pricing-index ')).toBe(true)
      expect(body.slice(body.indexOf('\n\n') + 2).startsWith('# ')).toBe(true)
      expect(body).not.toMatch(/content\/|\.yaml|schema\//) // no file paths of ours
      const digest = `sha-256=:${createHash('sha256').update(body).digest('base64')}:`
      expect(paid.headers.get('content-digest')).toBe(digest)
    })

  it('behavior: the routine-deploy gates are checkbox lines, each with its check, inputs, why it applies and block, advice or defer', async () => {
    const { paid } = await payOnce(`/v1/fde-preship-checklist?${ROUTINE}&format=agents-md`)
    const body = await paid.text()
    const json = await (await payOnce(`/v1/fde-preship-checklist?${ROUTINE}`)).paid.json()
    const gates = json.checklist as { id: string; check_spec: { on_fail: string } }[]
    // `block` only for harm that cannot be undone; the ranked line says when a gate is advice.
    const advice = new Set(
      (json.ranked as { kind: string; id: string; why: string }[])
        .filter((r) => r.kind === 'gate' && r.why.startsWith('advice'))
        .map((r) => r.id),
    )
    const label = (g: (typeof gates)[number]) => (advice.has(g.id) ? 'advice' : g.check_spec.on_fail)
    // An item's box opens with its id; a plan point's (what the plan must also say) with its words.
    const boxes = body.split('\n').filter((l) => l.startsWith('- [ ] `'))
    const points = json.plan_points as { id: string }[]
    expect(body.split('\n').filter((l) => l.startsWith('- [ ] ') && !l.startsWith('- [ ] `'))).toHaveLength(
      points.length,
    )
    expect(boxes.map((l) => /`([^`]+)`/.exec(l)?.[1])).toEqual(gates.map((g) => g.id))
    for (const [n, g] of gates.entries()) expect(boxes[n]).toContain(`(${label(g)})`)
    expect(body.match(/^ {2}- Check: /gm)?.length).toBe(gates.length)
    expect(body.match(/^ {2}- Read: /gm)?.length).toBe(gates.length)
    expect(body.match(/^ {2}- Applies because: deploy/gm)?.length).toBe(gates.length)
  })

  it('behavior: Accept: text/markdown asks for agents-md, and the payment binds the format: a JSON credential does not buy Markdown', async () => {
    const markdownChallenge = challengeFrom(
      await get('/v1/fde-lessons?topic=retry', { headers: { accept: 'text/markdown' } }),
    )
    const auth = authorization(markdownChallenge, { spt: token() })
    const asJson = await get('/v1/fde-lessons?topic=retry', { headers: { authorization: auth } })
    expect(asJson.status).toBe(402)
    const asParam = await get('/v1/fde-lessons?topic=retry&format=agents-md', {
      headers: { authorization: auth },
    })
    expect(asParam.status).toBe(200)
    expect(asParam.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
  })

  it('behavior: the README receipt snippet verifies a Markdown answer', async () => {
    const verifyReceipt = await readmeVerifyReceipt('readme-verify-markdown-receipt.mjs')
    const { paid } = await payOnce('/v1/fde-playbooks?format=skill')
    const body = await paid.text()
    const claims = await verifyReceipt(await jwks(), paid, body)
    expect(claims.resource).toBe('GET /v1/fde-playbooks?format=skill')
  })

  it('behavior: format=skill starts with a YAML header naming the skill and saying when to load it', async () => {
    const { paid } = await payOnce(`/v1/fde-preship-checklist?${ROUTINE}&format=skill`)
    const body = await paid.text()
    const header = /^---\n([\s\S]*?)\n---\n/.exec(body)?.[1]
    expect(header).toBeTruthy()
    const meta = parse(header as string) as { name: string; description: string }
    expect(meta.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    expect(meta.name.length).toBeLessThanOrEqual(64)
    expect(meta.description).toMatch(/^Load /)
    expect(meta.description).toContain('deploy')
    expect(meta.description.length).toBeLessThanOrEqual(1024)
    const afterHeader = body.slice(body.indexOf('\n---\n') + 5)
    expect(afterHeader).toMatch(/^> rules-pricing-index /)
    expect(afterHeader).toMatch(/^# Pre-ship gates for deploy$/m)
  })

  it('error: an unknown format is a 400 naming it and the allowed values, before any challenge', async () => {
    const r = await get('/v1/fde-lessons?format=pdf')
    expect(r.status).toBe(400)
    expect(r.headers.get('www-authenticate')).toBeNull()
    expect(await r.json()).toMatchObject({ parameter: 'format', allowed: ['json', 'agents-md', 'skill'] })
  })
})

describe('Markdown answers over MCP', () => {
  it('behavior: the format argument makes the text block the Markdown to save, paid in band', async () => {
    const params = { name: 'fde_playbook', arguments: { format: 'agents-md' } }
    const unpaid = (await (await legacyToolCall(params)).json()) as {
      result: { _meta: Record<string, { challenges: Record<string, unknown>[] }> }
    }
    const challenge = unpaid.result._meta['org.paymentauth/payment-required']?.challenges[0]
    const paid = (await (
      await legacyToolCall({
        ...params,
        _meta: { 'org.paymentauth/credential': { challenge, payload: { spt: token() } } },
      })
    ).json()) as { result: { isError?: boolean; content: { text: string }[] } }
    expect(paid.result.isError).toBeFalsy()
    expect(paid.result.content[0]?.text).toMatch(/^> rules-pricing-index .*MCP fde_playbook/)
    expect(paid.result.content[0]?.text).toMatch(/^# Playbooks$/m)
    expect(base()).toBeTruthy()
  })
})
