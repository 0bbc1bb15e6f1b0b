/**
 * The version and deprecation policy is written once (schema/version-policy.ts) and reads the same
 * in README, llms.txt and openapi.json; the retired paths document their lifecycle headers.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { ROUTES, WARN_FEED_RETIRED_ON } from '../../schema/routes.js'
import {
  DEPRECATION_NOTICE_DAYS,
  RETIRED_ANSWER_DAYS,
  retiredHeaders,
  VERSION_POLICY,
  VERSION_POLICY_SUMMARY,
  versionPolicyMarkdown,
  versionPolicyText,
} from '../../schema/version-policy.js'
import { tempDir } from '../support/content-copy.js'

const { files } = await build({ contentDir: 'content', outDir: await tempDir(), urls: LOCAL_URLS })
const api = JSON.parse(files.get('public/openapi.json') as string)
const llms = files.get('public/llms.txt') as string

describe('version and deprecation policy', () => {
  it('behavior: README and llms.txt carry the same statements; openapi.json its summary and numbers', () => {
    const readme = readFileSync('README.md', 'utf8')
    expect(readme).toContain(`## Versions and deprecation\n\n`)
    expect(readme).toContain(versionPolicyMarkdown())
    expect(llms).toContain(`Versions and deprecation: ${versionPolicyText()}`)
    for (const statement of VERSION_POLICY) expect(llms).toContain(statement)
    // openapi.json is size-capped: it carries the summary, the numbers and where the whole policy is.
    expect(api.info.description).toContain(VERSION_POLICY_SUMMARY)
    expect(api.info['x-version-policy']).toMatchObject({
      deprecationNoticeDays: DEPRECATION_NOTICE_DAYS,
      retiredAnswerDays: RETIRED_ANSWER_DAYS,
      policy: `${LOCAL_URLS.base_url}/llms.txt`,
    })
  })

  it('behavior: every retired operation documents the 410 with Deprecation, Sunset and Link, and no challenge', () => {
    const retired = ROUTES.filter((r) => r.access === 'retired')
    expect(retired.length).toBeGreaterThan(0)
    for (const route of retired) {
      const op = api.paths[route.path].get
      expect(op.deprecated).toBe(true)
      expect(op.security).toEqual([])
      expect(Object.keys(op.responses)).toEqual(['410'])
      // Written once under components/responses (openapi.json has a 64 KB cap).
      expect(op.responses['410']).toEqual({ $ref: '#/components/responses/Gone' })
      const gone = api.components.responses.Gone
      expect(Object.keys(gone.headers).sort()).toEqual(['Deprecation', 'Link', 'Sunset'])
    }
    for (const name of ['Deprecation', 'Sunset', 'Link']) expect(api.components.headers[name]).toBeDefined()
  })

  it("behavior: the retired feed's dates: Deprecation is the withdrawal day (RFC 9745), Sunset the end of the 410 period (RFC 8594)", () => {
    const { deprecation, sunset } = retiredHeaders(WARN_FEED_RETIRED_ON)
    expect(deprecation).toBe('@1789689600') // 2026-09-18T00:00:00Z
    expect(new Date(sunset).toISOString()).toBe(
      new Date(Date.parse('2026-09-18T00:00:00Z') + RETIRED_ANSWER_DAYS * 86_400_000).toISOString(),
    )
    expect(sunset).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} 00:00:00 GMT$/)
  })
})
