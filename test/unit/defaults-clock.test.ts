/**
 * A default that depends on the clock is resolved once, against the challenge (#36 M3): the
 * changes window without `since`, paid just before 00:00 UTC and re-sent just after it, binds the
 * same request, so the lost answer can be fetched again under its key and is never "another request".
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PREPARE } from '../../gateway/datasets/answers.js'
import { normaliseQuery, opaqueBinds, opaqueFor } from '../../gateway/payment/binding.js'
import { defaultsClock } from '../../gateway/payment/request-clock.js'

const TTL_MS = 5 * 60_000
const changesFile = readdirSync('dist/private').find((f) => f.startsWith('changes.')) as string
const data = {
  changes: JSON.parse(readFileSync(`dist/private/${changesFile}`, 'utf8')),
  pricing: { latest_correction: '' },
} as never

/** The binding the gateway builds for GET /v1/pricing/changes (no `since`) at `now`. */
function bindingAt(now: number) {
  const prepared = PREPARE.changes?.(data, {}, now)
  if (!prepared?.ok) throw new Error('the changes window is empty')
  return { via: 'http' as const, target: 'GET /v1/pricing/changes', query: normaliseQuery(prepared.filters) }
}

describe('the clock a request resolves its defaults against', () => {
  it('behavior: a credential paid at 23:59:50 UTC and re-sent at 00:00:10 binds the same request', () => {
    const issuedAt = Date.parse('2026-11-25T23:59:40Z')
    const expires = new Date(issuedAt + TTL_MS).toISOString()
    const challengeOpaque = opaqueFor(bindingAt(issuedAt))
    for (const at of ['2026-11-25T23:59:50Z', '2026-11-26T00:00:10Z', '2026-11-26T20:00:00Z'])
      expect(
        opaqueBinds(challengeOpaque, bindingAt(defaultsClock(expires, TTL_MS, Date.parse(at)))),
        at,
      ).toBe(true)
  })

  it('behavior: without a credential, or with an expiry that is not a date, it is the request clock', () => {
    const now = Date.parse('2026-11-26T00:00:10Z')
    expect(defaultsClock(undefined, TTL_MS, now)).toBe(now)
    expect(defaultsClock('not a date', TTL_MS, now)).toBe(now)
    expect(defaultsClock(42, TTL_MS, now)).toBe(now)
  })

  it('error: an expiry claiming a challenge from the future never moves the clock forward', () => {
    const now = Date.parse('2026-11-26T00:00:10Z')
    expect(defaultsClock('2027-01-01T00:00:00Z', TTL_MS, now)).toBe(now)
  })
})
