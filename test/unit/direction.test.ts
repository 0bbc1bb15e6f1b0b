/**
 * Issue 43, items whose premise the change does not meet: a trap written for moving a value one way
 * (a shorter retention deletes unread data) is one line for a change that moves it the other way
 * (a longer retention), said why; a change that says neither way, or both, keeps it in full.
 */
import { describe, expect, it } from 'vitest'
import { changeDirection } from '../../gateway/datasets/direction.js'
import { selectTraps } from '../../gateway/datasets/trap-selection.js'
import { DIRECTION_IDS, DIRECTIONS } from '../../schema/directions.js'
import type { TrapsBundle } from '../../schema/traps.js'
import { fixtureTechnology, fixtureTrap } from '../support/trap-fixture.js'

const bundle: TrapsBundle = {
  technologies: [
    fixtureTechnology('kafka', 'Apache Kafka', 'queue-stream', [
      fixtureTrap('kafka-shorter', 'Shortening a topic retention deletes segments consumers have not read.', {
        actions: ['config-push'],
        direction: 'lowering',
      }),
      fixtureTrap('kafka-longer', 'Lengthening a topic retention grows each broker disk by the extra days.', {
        actions: ['config-push'],
        direction: 'raising',
      }),
      fixtureTrap('kafka-any', 'Changing a topic retention on a compacted topic has no effect on keys.', {
        actions: ['config-push'],
      }),
    ]),
  ],
}
const oneLine = (change: string) =>
  Object.fromEntries(
    selectTraps(bundle, [{ name: 'kafka', id: 'kafka' }], 'kafka', ['config-push'], change).traps.map((t) => [
      t.id,
      t.one_line_because,
    ]),
  )

describe('the way a change moves a value', () => {
  it('behavior: each way is said by every one of its words, and by whole numbers "from a to b"', () => {
    for (const d of DIRECTION_IDS)
      for (const w of DIRECTIONS[d].split(' ')) expect(changeDirection(`${w} the topic retention`), w).toBe(d)
    expect(changeDirection('set retention from 3 to 7 days')).toBe('raising')
    expect(changeDirection('set retention from 7 to 3 days')).toBe('lowering')
  })

  it('behavior: a version move, both ways, a replacement or neither way says no direction', () => {
    expect(changeDirection('move opensearch from 2.11 to 2.17')).toBeUndefined()
    // Replacing nodes with bigger ones removes the old ones while it raises their size.
    expect(changeDirection('bigger master nodes')).toBe('raising')
    expect(changeDirection('replace the three master nodes with bigger instances')).toBeUndefined()
    expect(changeDirection('raise the cpu and lower the memory')).toBeUndefined()
    // A cut is a lowering: raising the disk while cutting the retention says both ways.
    expect(changeDirection('raise broker storage and cut topic retention to 3 days')).toBeUndefined()
    // Cutting over moves traffic, not a value.
    expect(changeDirection('raise the pool size, then cut over to the new cluster')).toBe('raising')
    expect(changeDirection('set the topic retention to 3 days')).toBeUndefined()
    expect(changeDirection(undefined)).toBeUndefined()
  })

  it('behavior: a trap written for the other way is one line, said why; one written for both ways stays', () => {
    const longer = oneLine('increase kafka topic retention from 3 to 7 days')
    expect(longer['kafka-shorter']).toContain('written for lowering the value, and your change is raising it')
    expect(longer['kafka-longer']).toBeUndefined()
    expect(longer['kafka-any']).toBeUndefined()
    const shorter = oneLine('set topic retention from 7 to 3 days')
    expect(shorter['kafka-shorter']).toBeUndefined()
    expect(shorter['kafka-longer']).toContain('written for raising')
    const neither = oneLine('set the topic retention to 3 days')
    expect(Object.values(neither).every((v) => v === undefined)).toBe(true)
  })
})
