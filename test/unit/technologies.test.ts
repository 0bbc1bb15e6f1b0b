/**
 * Issue 43, item 2: an agent names what it changes (`technologies=postgresql@16,pgbouncer`); names
 * and aliases match without regard to case, a version is kept beside its name, an unknown name is
 * no error, and a bad value is refused naming `technologies`. Version ranges decide which traps hold.
 */
import { describe, expect, it } from 'vitest'
import {
  normalisedTechnologies,
  readTechnologies,
  resolveTechnologies,
  TECHNOLOGIES_MAX,
} from '../../schema/technologies.js'
import { parseRange, rangeAdmits } from '../../schema/version-range.js'

const COVERED = [
  { id: 'postgresql', aliases: ['postgres', 'pg'] },
  { id: 'pgbouncer', aliases: [] },
  { id: 'nodejs', aliases: ['node'] },
]

const asked = (raw: unknown) => {
  const read = readTechnologies(raw)
  if ('parameter' in read) throw new Error(read.detail)
  return read.asked
}

describe('reading technologies', () => {
  it('behavior: commas, a list and repeats read as one set of names, lower-cased, each with its version', () => {
    expect(asked('PostgreSQL@16, pgbouncer')).toEqual([
      { name: 'postgresql', version: '16' },
      { name: 'pgbouncer' },
    ])
    expect(asked(['pg@16', 'pgbouncer,pg@16'])).toEqual([
      { name: 'pg', version: '16' },
      { name: 'pgbouncer' },
    ])
    expect(asked('postgresql@v15.4')).toEqual([{ name: 'postgresql', version: '15.4' }])
    // A name written with a space (nginx+plus in a query string) is its hyphenated form.
    expect(asked('nginx plus')).toEqual([{ name: 'nginx-plus' }])
  })

  it('behavior: aliases and spellings resolve to the covered id; an unknown name stays as asked, without an id', () => {
    const resolved = resolveTechnologies(asked('PG@16,node.js,Debezium'), COVERED)
    expect(resolved).toEqual([
      { name: 'pg', version: '16', id: 'postgresql' },
      { name: 'node.js', id: 'nodejs' },
      { name: 'debezium' },
    ])
  })

  it('behavior: an alias released on its own versions names the technology without giving it that version', () => {
    const covered = [
      {
        id: 'terraform',
        aliases: ['tf', 'terraform-provider-aws'],
        versioned_apart: ['terraform-provider-aws'],
      },
    ]
    expect(resolveTechnologies(asked('terraform-provider-aws@5.62,tf@1.9'), covered)).toEqual([
      { name: 'terraform-provider-aws', id: 'terraform' },
      { name: 'tf', version: '1.9', id: 'terraform' },
    ])
    // So a provider's version never reads as a second Terraform version (an upgrade that is not one).
    expect(
      normalisedTechnologies(
        resolveTechnologies(asked('terraform@1.9,terraform-provider-aws@5.62'), covered),
      ),
    ).toBe('terraform,terraform@1.9')
  })

  it('behavior: the bound text is the same whatever the order or the alias used', () => {
    const a = normalisedTechnologies(resolveTechnologies(asked('pgbouncer,postgres@16'), COVERED))
    const b = normalisedTechnologies(resolveTechnologies(asked('PG@16,pgbouncer,pgbouncer'), COVERED))
    expect(a).toBe('pgbouncer,postgresql@16')
    expect(b).toBe(a)
    const other = normalisedTechnologies(resolveTechnologies(asked('pg@15,pgbouncer'), COVERED))
    expect(other).not.toBe(a)
  })

  for (const [raw, why] of [
    ['', 'names no technology'],
    [' , ,', 'names no technology'],
    ['post gres;drop', 'may hold only'],
    ['x'.repeat(41), 'longer than 40'],
    ['pg@16;rm', 'version'],
    [`pg@${'1'.repeat(21)}`, 'version'],
    [
      Array.from({ length: TECHNOLOGIES_MAX + 1 }, (_, i) => `t${i}`).join(','),
      `at most ${TECHNOLOGIES_MAX}`,
    ],
    [[1, 2], 'must be text'],
  ] as const)
    it(`error: ${JSON.stringify(raw).slice(0, 40)} is refused naming technologies (${why})`, () => {
      const read = readTechnologies(raw)
      expect('parameter' in read && read.parameter).toBe('technologies')
      expect('detail' in read && read.detail).toContain(why)
    })
})

describe('version ranges', () => {
  it('behavior: bounds, families and alternatives admit the versions release notes mean', () => {
    expect(rangeAdmits('< 17', '16')).toBe(true)
    expect(rangeAdmits('< 17', '17')).toBe(false)
    expect(rangeAdmits('< 17', '17.2')).toBe(false)
    expect(rangeAdmits('>= 2.4', '2.4.1')).toBe(true)
    expect(rangeAdmits('>= 2.4', '2.3')).toBe(false)
    expect(rangeAdmits('9.x', '9.6')).toBe(true)
    expect(rangeAdmits('9.x', '10')).toBe(false)
    expect(rangeAdmits('3.5.x', '3.5.12')).toBe(true)
    expect(rangeAdmits('3.5.x', '3.6.0')).toBe(false)
    expect(rangeAdmits('>= 14, < 17', '15')).toBe(true)
    expect(rangeAdmits('>=14 <17', '13')).toBe(false)
    expect(rangeAdmits('<= 16', '16.4')).toBe(true)
    expect(rangeAdmits('> 16', '16.9')).toBe(false)
    expect(rangeAdmits('> 16', '17')).toBe(true)
    expect(rangeAdmits('< 3 || >= 5', '4')).toBe(false)
    expect(rangeAdmits('< 3 || >= 5', '5.1')).toBe(true)
  })

  it('behavior: an asked family is kept when any of its versions can be in the range', () => {
    // postgresql@16 names every 16.x: a trap for 16.2 and later may hold for it.
    expect(rangeAdmits('>= 16.2', '16')).toBe(true)
    expect(rangeAdmits('>= 16.2', '16.1')).toBe(false)
  })

  it('behavior: no range, no version or an unreadable version keeps the trap (the agent is told)', () => {
    expect(rangeAdmits(undefined, '16')).toBe(true)
    expect(rangeAdmits('< 17', undefined)).toBe(true)
    expect(rangeAdmits('< 17', 'latest')).toBe(true)
  })

  it('error: a range that cannot be read or admits nothing says why', () => {
    for (const range of ['soon', '>= 17, < 16', '< 3 ||', '16.'])
      expect('problem' in parseRange(range), range).toBe(true)
  })
})
