/**
 * A trap for tests that build their own bundle: every field the schema asks for, filled with plain
 * placeholders, and whatever the test is about given in `extra`.
 */
import type { Trap, TrapFile } from '../../schema/traps.js'

export const fixtureTrap = (id: string, text: string, extra: Partial<Trap> = {}): Trap => ({
  id,
  actions: ['dependency-upgrade'],
  severity: 'outage',
  trap: text,
  probe: 'read it',
  stop_if: 'it says so',
  safe_path: 'the safe way',
  source_url: 'https://example.org/doc',
  quote: 'a quote',
  read_on: '2026-11-27',
  ...extra,
})

/** A technology file for tests: its id, display name and kind, its traps, and whatever else in `extra`. */
export const fixtureTechnology = (
  technology: string,
  name: string,
  kind: TrapFile['kind'],
  traps: Trap[],
  extra: Partial<TrapFile> = {},
): TrapFile => ({ technology, name, kind, aliases: [], traps, ...extra })
