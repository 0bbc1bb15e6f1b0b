import { describe, expect, it } from 'vitest'
import {
  type AppliesWhen,
  appliesBecause,
  appliesWhenBreaks,
  type Fact,
  normalisedSituation,
  readSituation,
} from '../../schema/situation.js'

const facts: Fact[] = [
  { fact: 'emergency', type: 'boolean', question: 'Is it an emergency?', when_unknown: 'both apply' },
  { fact: 'targets', type: 'integer', min: 1, question: 'How many targets?', when_unknown: 'all apply' },
  { fact: 'stateful', type: 'boolean', question: 'Stateful?', when_unknown: 'stateful' },
  {
    fact: 'renewal',
    type: 'enum',
    values: ['routine', 'emergency-swap'],
    question: 'Which renewal?',
    when_unknown: 'x',
  },
]
const staged: { applies_to: string[]; applies_when: AppliesWhen } = {
  applies_to: ['deploy', 'dns'],
  applies_when: [{ targets: { at_least: 2 }, emergency: false }],
}

describe('appliesBecause: which checks a situation needs', () => {
  it('a check without applies_when applies to every situation of its actions, and to no other action', () => {
    expect(appliesBecause({ applies_to: ['deploy'] }, { action: 'deploy', facts: {} }, facts)).toEqual({
      action: 'deploy',
      matched: {},
    })
    expect(appliesBecause({ applies_to: ['deploy'] }, { action: 'dns', facts: {} }, facts)).toBeUndefined()
  })

  it('answered facts that hold are named as what matched; one contradicting answer drops the check', () => {
    const why = appliesBecause(staged, { action: 'deploy', facts: { targets: 3, emergency: false } }, facts)
    expect(why).toEqual({ action: 'deploy', matched: { targets: 3, emergency: false } })
    expect(
      appliesBecause(staged, { action: 'deploy', facts: { targets: 1, emergency: false } }, facts),
    ).toBeUndefined()
    expect(
      appliesBecause(staged, { action: 'deploy', facts: { targets: 9, emergency: true } }, facts),
    ).toBeUndefined()
  })

  it('an unanswered fact keeps the check (fail closed) and names the question and the answer that drops it', () => {
    const why = appliesBecause(staged, { action: 'deploy', facts: { targets: 3 } }, facts)
    expect(why?.matched).toEqual({ targets: 3 })
    expect(why?.unanswered).toEqual([{ fact: 'emergency', question: 'Is it an emergency?', drops_if: true }])
    const none = appliesBecause(staged, { action: 'deploy', facts: {} }, facts)
    expect(none?.unanswered?.map((u) => [u.fact, u.drops_if])).toEqual([
      ['targets', { at_most: 1 }],
      ['emergency', true],
    ])
  })

  it('of several alternatives, one that holds wins; a fact no single answer settles has no drops_if', () => {
    const spec: { applies_to: string[]; applies_when: AppliesWhen } = {
      applies_to: ['certificate'],
      applies_when: [{ renewal: 'emergency-swap' }, { stateful: true, renewal: ['routine'] }],
    }
    expect(
      appliesBecause(spec, { action: 'certificate', facts: { renewal: 'emergency-swap' } }, facts)?.matched,
    ).toEqual({
      renewal: 'emergency-swap',
    })
    const open = appliesBecause(spec, { action: 'certificate', facts: {} }, facts)
    expect(open?.unanswered?.find((u) => u.fact === 'renewal')?.drops_if).toBeUndefined()
    expect(open?.unanswered?.find((u) => u.fact === 'stateful')?.drops_if).toBeUndefined()
    expect(
      appliesBecause(spec, { action: 'certificate', facts: { renewal: 'routine', stateful: false } }, facts),
    ).toBeUndefined()
  })

  it('an alternative that names an action holds only for that action', () => {
    const spec: { applies_to: string[]; applies_when: AppliesWhen } = {
      applies_to: ['deploy', 'dns'],
      applies_when: [{ action: 'dns' }, { stateful: true }],
    }
    expect(appliesBecause(spec, { action: 'dns', facts: { stateful: false } }, facts)).toBeDefined()
    expect(appliesBecause(spec, { action: 'deploy', facts: { stateful: false } }, facts)).toBeUndefined()
  })
})

describe('appliesWhenBreaks: the build refuses conditions it cannot evaluate', () => {
  it('names an undefined fact, a wrong type, a value outside the enum, an impossible range and a foreign action', () => {
    const breaks = appliesWhenBreaks(
      [
        { blast_radius: true },
        { emergency: 'yes' },
        { renewal: 'weekly' },
        { targets: { at_most: 0 } },
        { targets: { at_least: 5, at_most: 2 } },
        { action: 'restart' },
        {},
      ],
      ['deploy'],
      facts,
    )
    expect(breaks.map((b) => b.path.join('.'))).toEqual([
      '0.blast_radius',
      '1.emergency',
      '2.renewal',
      '3.targets',
      '4.targets',
      '5.action',
      '6',
    ])
  })

  it('accepts every well-formed condition', () => {
    const when: AppliesWhen = [
      { emergency: false, targets: { at_least: 2 } },
      { renewal: ['routine'], stateful: true },
      { targets: 1 },
    ]
    expect(appliesWhenBreaks(when, ['deploy'], facts)).toEqual([])
  })
})

describe('readSituation: the situation from a query string or tool arguments', () => {
  it('reads typed and text answers alike and puts them in one canonical order', () => {
    const text = readSituation(
      [
        ['stateful', 'FALSE'],
        ['targets', '3'],
        ['action', 'Deploy'],
        ['emergency', 'false'],
      ],
      facts,
    )
    const typed = readSituation(
      [
        ['action', 'deploy'],
        ['emergency', false],
        ['targets', 3],
        ['stateful', false],
      ],
      facts,
    )
    if ('parameter' in text || 'parameter' in typed) throw new Error('refused')
    expect(text.situation).toEqual(typed.situation)
    expect(Object.keys(normalisedSituation(text.situation, facts))).toEqual([
      'action',
      'emergency',
      'targets',
      'stateful',
    ])
  })

  it('refuses an unknown fact, a wrong type and an out-of-range integer, naming the fact and what is allowed', () => {
    const unknown = readSituation([['blast', 'true']], facts)
    expect(unknown).toMatchObject({
      parameter: 'blast',
      allowed: ['action', 'emergency', 'targets', 'stateful', 'renewal'],
    })
    expect(readSituation([['emergency', 'maybe']], facts)).toMatchObject({
      parameter: 'emergency',
      allowed: ['true', 'false'],
    })
    expect(readSituation([['targets', '0']], facts)).toMatchObject({
      parameter: 'targets',
      allowed: { type: 'integer', minimum: 1 },
    })
    expect(readSituation([['targets', '2.5']], facts)).toMatchObject({ parameter: 'targets' })
    expect(readSituation([['renewal', 'weekly']], facts)).toMatchObject({
      parameter: 'renewal',
      allowed: ['routine', 'emergency-swap'],
    })
    expect(readSituation([['action', 'teleport']], facts)).toMatchObject({ parameter: 'action' })
  })
})
