/**
 * Issue 43, do no harm: an item whose inputs cannot exist for the technologies named never comes.
 * Read from the real content: a restore test fits stores of record (a database, object storage), not
 * a stream, a cache or a search index rebuilt from its source; a sandbox's reach check fits anything
 * but a CI change, which holds no copied data and sends to no one.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { doNoHarm } from '../../gateway/datasets/do-no-harm.js'
import type { PublishedGate } from '../../schema/datasets.js'
import type { TrapFile } from '../../schema/traps.js'
import { harmMap } from '../support/do-no-harm.js'

const kindOf = async (id: string) =>
  (parse(await readFile(`content/traps/${id}.yaml`, 'utf8')) as TrapFile).kind

async function kept(gate: string, technology: string, facts: Record<string, unknown>) {
  const harm = await harmMap()
  const kind = await kindOf(technology)
  const result = doNoHarm(harm, facts, [{ name: technology, id: technology }], () => kind, {
    gates: [{ id: gate } as PublishedGate],
    rules: [],
    traps: [],
    because: { [gate]: { action: 'deploy', matched: {} } },
  })
  return { held: result.gates.length === 1, left_out: result.left_out }
}

describe('items that do not fit the technologies named never come', () => {
  it('behavior: the restore-test gate comes for a database and object storage, never for a stream, cache or search index', async () => {
    for (const t of ['postgresql', 'aws-s3'])
      expect((await kept('latest-backup-restored-and-checked', t, {})).held, t).toBe(true)
    for (const t of ['kafka', 'redis', 'elasticsearch']) {
      const r = await kept('latest-backup-restored-and-checked', t, {})
      expect(r.held, t).toBe(false)
      expect(r.left_out.join(' '), t).toContain('its inputs do not exist')
    }
  })

  it('behavior: the sandbox reach gate comes for a staging database, never for a CI change', async () => {
    const outside = { production: false }
    expect((await kept('non-production-cannot-reach-people-or-production', 'aws-rds', outside)).held).toBe(
      true,
    )
    expect(
      (await kept('non-production-cannot-reach-people-or-production', 'github-actions', outside)).held,
    ).toBe(false)
  })
})
