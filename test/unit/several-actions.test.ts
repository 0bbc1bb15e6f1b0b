/**
 * Issue 34, item 4: a change that is several actions names them all and gets the union, each item
 * saying which action(s) brought it; the order the actions are named never changes the answer or
 * what the payment binds.
 */
import { describe, expect, it } from 'vitest'
import {
  type AppliesWhen,
  appliesBecause,
  type Fact,
  normalisedSituation,
  readActions,
  readSituation,
} from '../../schema/situation.js'

const facts: Fact[] = [
  { fact: 'emergency', type: 'boolean', question: 'Is it an emergency?', when_unknown: 'both apply' },
  { fact: 'stateful', type: 'boolean', question: 'Stateful?', when_unknown: 'stateful' },
]
const backup: { applies_to: string[]; applies_when: AppliesWhen } = {
  applies_to: ['schema-change', 'bulk-delete'],
  applies_when: [{ stateful: true }],
}
const pinned = { applies_to: ['dependency-upgrade'] }
const both = { applies_to: ['dependency-upgrade', 'schema-change'] }

const situation = (action: string, f: Record<string, boolean> = {}) => {
  const read = readSituation([['action', action], ...Object.entries(f)], facts)
  if ('parameter' in read) throw new Error(read.detail)
  return read.situation
}

describe('several actions in one situation', () => {
  it('behavior: commas, a list and any order read as the same sorted set, without repeats', () => {
    expect(readActions('schema-change,dependency-upgrade')).toEqual({
      actions: ['dependency-upgrade', 'schema-change'],
    })
    expect(readActions(['dependency-upgrade', 'schema-change', 'dependency-upgrade'])).toEqual({
      actions: ['dependency-upgrade', 'schema-change'],
    })
    expect(readActions(' Deploy ')).toEqual({ actions: ['deploy'] })
  })

  it('error: one unknown action among several is refused, naming it and listing the vocabulary', () => {
    const read = readActions('deploy,teleport')
    expect(read).toMatchObject({ parameter: 'action' })
    expect('detail' in read && read.detail).toContain('teleport')
    expect(readActions([])).toMatchObject({ parameter: 'action' })
  })

  it('behavior: the union: an item any action brings is in, each naming the actions that brought it', () => {
    const s = situation('dependency-upgrade,schema-change', { stateful: true })
    expect(appliesBecause(pinned, s, facts)).toEqual({
      action: 'dependency-upgrade',
      actions: ['dependency-upgrade'],
      matched: {},
    })
    expect(appliesBecause(backup, s, facts)).toEqual({
      action: 'schema-change',
      actions: ['schema-change'],
      matched: { stateful: true },
    })
    expect(appliesBecause(both, s, facts)?.actions).toEqual(['dependency-upgrade', 'schema-change'])
    // An item none of the actions brings stays out.
    expect(appliesBecause({ applies_to: ['dns'] }, s, facts)).toBeUndefined()
    // A fact that contradicts the only action that could bring it drops it.
    expect(
      appliesBecause(backup, situation('dependency-upgrade,schema-change', { stateful: false }), facts),
    ).toBe(undefined)
  })

  it('behavior: an unanswered fact is named only when no action brings the item outright', () => {
    const open = appliesBecause(backup, situation('bulk-delete,schema-change'), facts)
    expect(open?.actions).toEqual(['bulk-delete', 'schema-change'])
    expect(open?.unanswered?.map((u) => u.fact)).toEqual(['stateful'])
    expect(open?.unanswered?.[0]?.drops_if).toBe(false)
    const outright = appliesBecause(
      { applies_to: ['deploy', 'schema-change'], applies_when: [{ action: 'deploy' }, { stateful: true }] },
      situation('deploy,schema-change'),
      facts,
    )
    expect(outright).toEqual({ action: 'deploy', actions: ['deploy'], matched: {} })
  })

  it('behavior: the payment binds the action set, not the order it was named in', () => {
    const a = normalisedSituation(situation('schema-change,dependency-upgrade', { stateful: true }), facts)
    const b = normalisedSituation(situation('dependency-upgrade,schema-change', { stateful: true }), facts)
    expect(a).toEqual(b)
    expect(a.action).toBe('dependency-upgrade,schema-change')
    // One action reads exactly as before.
    expect(normalisedSituation(situation('deploy'), facts)).toEqual({ action: 'deploy' })
  })
})
