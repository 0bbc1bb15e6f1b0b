/**
 * The deploy's smoke test passes against the local service before it ever guards a deploy, and the
 * retired feed answers with its lifecycle headers and no challenge.
 */
import { describe, expect, it } from 'vitest'
import { ROUTES, WARN_FEED_RETIRED_ON } from '../../schema/routes.js'
import { retiredHeaders } from '../../schema/version-policy.js'
import { smoke, smokeArgs } from '../../scripts/deploy/smoke.js'
import { base, get } from '../support/service.js'

describe('smoke test (scripts/deploy/smoke.ts)', () => {
  it('behavior: every check passes against the running service, and none of them pays', async () => {
    const checks = await smoke(base())
    expect(checks.filter((c) => !c.ok)).toEqual([])
    const paid = ROUTES.filter((r) => r.access === 'paid')
    expect(checks.filter((c) => c.name.startsWith('402 ')).map((c) => c.name)).toEqual(
      paid.map((r) => `402 ${r.path}`),
    )
    for (const name of ['key set /.well-known/jwks.json', 'MCP server/discover', 'MCP tools/list'])
      expect(checks.map((c) => c.name)).toContain(name)
  })

  it('error: a wrong realm or an unreachable address fails the checks it touches', async () => {
    const wrongRealm = await smoke(base(), { realm: 'elsewhere.example' })
    expect(
      wrongRealm.filter((c) => c.name.startsWith('402 ')).every((c) => !c.ok && /realm/.test(c.detail)),
    ).toBe(true)
    const nowhere = await smoke('http://127.0.0.1:9', { timeoutMs: 2000 })
    expect(nowhere.every((c) => !c.ok)).toBe(true)
  })

  it('behavior: the command line takes the base URL, a realm and repeated headers', () => {
    expect(
      smokeArgs([
        'https://rules.example.org',
        '--header',
        'Cloudflare-Workers-Version-Overrides: rules-pricing-gateway="abc"',
        '--realm',
        'rules.example.org',
      ]),
    ).toEqual({
      baseUrl: 'https://rules.example.org',
      options: {
        realm: 'rules.example.org',
        headers: { 'Cloudflare-Workers-Version-Overrides': 'rules-pricing-gateway="abc"' },
      },
    })
    expect(() => smokeArgs([])).toThrow(/usage/)
  })
})

describe('retired paths', () => {
  for (const route of ROUTES.filter((r) => r.access === 'retired'))
    it(`behavior: ${route.path} answers 410 with Deprecation, Sunset and the successor link, no challenge`, async () => {
      const r = await get(route.path)
      expect(r.status).toBe(410)
      expect(r.headers.get('www-authenticate')).toBeNull()
      // RFC 9745: @<unix seconds> of the withdrawal day.
      expect(r.headers.get('deprecation')).toBe(`@${Date.parse(`${WARN_FEED_RETIRED_ON}T00:00:00Z`) / 1000}`)
      expect(r.headers.get('sunset')).toBe(retiredHeaders().sunset)
      expect(new Date(r.headers.get('sunset') as string).getTime()).toBeGreaterThan(
        Date.parse(WARN_FEED_RETIRED_ON),
      )
      const body = (await r.json()) as { replacement: { csv: string } }
      expect(r.headers.get('link')).toContain(`<${body.replacement.csv}>; rel="successor-version"`)
      expect(r.headers.get('link')).toMatch(/<[^>]+\/llms\.txt>; rel="deprecation"/)
      // A browser agent may read them too.
      const exposed = (r.headers.get('access-control-expose-headers') ?? '').split(/,\s*/)
      expect(exposed).toEqual(expect.arrayContaining(['Deprecation', 'Sunset', 'Link']))
    })
})
