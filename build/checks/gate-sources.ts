/**
 * Every gate can be followed to a public source: `source_url` (the incident's write-up, or the
 * documentation the check rests on) with `read_on`. A gate without one fails the build.
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
  // Every gate has a public source since issue 34: a rule it enforces is not a source of its own.
  return [
    {
      field: 'source_url',
      problem: NAMES_AN_INCIDENT.test(gate.prevents)
        ? '`prevents` names an incident but the gate gives no source for it'
        : 'the gate gives no public source (an incident write-up or the documentation it rests on)',
      allowed: "the https:// URL of the gate's source, with read_on (the date it was read)",
    },
  ]
}
