/**
 * Every gate can be followed to a source: a gate whose `prevents` names an incident carries the
 * incident's write-up in `source_url`, and no gate is left with neither a source nor a rule.
 */
import type { Gate } from '../../schema/content.js'
import type { BuildIssue } from '../stages/issues.js'

/** A gate names an incident when its text gives the year it happened ("On 2018-12-06", "In July 2025"). */
const NAMES_AN_INCIDENT = /\b(19|20)\d\d\b/

export function gateSourceBreaks(gate: Gate): Omit<BuildIssue, 'file'>[] {
  if ((gate.source_url === undefined) !== (gate.read_on === undefined))
    return [
      {
        field: gate.read_on === undefined ? 'read_on' : 'source_url',
        problem: 'source_url and read_on go together: the date the source was read',
        allowed: 'both fields, or neither',
      },
    ]
  if (gate.source_url) return []
  if (NAMES_AN_INCIDENT.test(gate.prevents))
    return [
      {
        field: 'source_url',
        problem: '`prevents` names an incident but the gate gives no source for it',
        allowed: "the https:// URL of the incident's write-up, with read_on (the date it was read)",
      },
    ]
  if (gate.rules.length === 0)
    return [
      {
        field: 'source_url',
        problem: 'the gate has no source of its own and enforces no rule, so nothing backs it',
        allowed: 'a source_url with read_on, or at least one rule id in `rules`',
      },
    ]
  return []
}
