/**
 * A query that cannot be right (#43 item 1): the facts an agent sends are trusted, so when its own
 * words for the change contradict one, the answer says which fact to re-check and what answering it
 * would change, rather than answer the wrong situation quietly. Two facts are read this way:
 * `emergency` (a deadline within the hour told as a routine change gets the planned path's waits,
 * and a maintenance window told as an emergency loses the checks a planned change has time for) and
 * `removes_objects` (told yes for a change whose words take nothing away, nor delete by age, it
 * brings the deletion checks: an owner to ask, a disuse window, a stop when usage cannot be read).
 * A doubted `removes_objects` is also answered by the words: the items it alone brought are kept
 * as an unanswered fact keeps them (`doubting`).
 */
import type { AppliesBecause } from '../../schema/situation.js'
import { premisesNamedBy } from './change-match.js'

/** The longest deadline, in minutes, that makes a change an emergency. */
export const EMERGENCY_DEADLINE_MINUTES = 120

/** "in 40 minutes", "within 2h", "under 90 min": a deadline and its unit. */
const DEADLINE = /\b(?:in|within|under|next|by)\s+(\d{1,4})\s*-?\s*(minutes?|mins?|m|hours?|hrs?|h)\b/
/** Words of harm happening now or of a deadline today (an expiring certificate, an outage). */
const URGENT =
  /\b(incident|outage|sev-?[01]|p[01]|urgent|asap|emergency|hotfix|deadline|expiring|expired|today|tonight)\b/
const PLANNED = /\b(planned|scheduled|weekly|monthly|routine|maintenance window|next week|tomorrow)\b/

/** Notes naming a fact the change's own words contradict; none when they agree. */
export function rechecks(facts: Record<string, unknown>, change: string | undefined): string[] {
  if (change === undefined) return []
  return [...emergencyRecheck(facts, change), ...removesRecheck(facts, change)]
}

function emergencyRecheck(facts: Record<string, unknown>, change: string): string[] {
  const sent = `emergency=${facts.emergency ?? 'unanswered'}`
  if (facts.emergency !== true) {
    const deadline = DEADLINE.exec(change)
    const minutes = deadline ? Number(deadline[1]) * (/^h/.test(deadline[2] ?? '') ? 60 : 1) : Infinity
    const said = minutes <= EMERGENCY_DEADLINE_MINUTES ? deadline?.[0] : URGENT.exec(change)?.[0]
    return said
      ? [
          `re-check emergency: your change says "${said}" and ${sent} was sent; if it must land before a deadline or during an outage, ask again with emergency=true (then only what stops harm comes, and nothing waits)`,
        ]
      : []
  }
  const said = PLANNED.exec(change)?.[0]
  return said
    ? [
        `re-check emergency: your change says "${said}" and ${sent} was sent; a planned change has time for the checks an emergency skips: ask again with emergency=false`,
      ]
    : []
}

/** Whether `removes_objects=true` was sent for a change whose words take nothing away. */
function removesDoubted(facts: Record<string, unknown>, change: string): boolean {
  const names = premisesNamedBy(change)
  // Lowering a retention or a lifecycle age deletes what falls outside it: that is a deletion too.
  return facts.removes_objects === true && !names('deletion') && !names('deletion-by-age')
}

function removesRecheck(facts: Record<string, unknown>, change: string): string[] {
  if (!removesDoubted(facts, change)) return []
  return [
    're-check removes_objects: your change names nothing it deletes, drops or removes and removes_objects=true was sent; if it takes nothing away that others use, ask again with removes_objects=false (then the deletion checks leave)',
  ]
}

/**
 * The items a doubted fact brought, read as if that fact were unanswered: the answer is decided by
 * the change's words, not only flagged. An item that `removes_objects=true` brought for a change
 * that names nothing it removes is one line under "also consider" (kept until the fact is
 * re-checked), and a question when it guards no harm that cannot be undone (do-no-harm.ts).
 */
export function doubting(
  because: Record<string, AppliesBecause>,
  facts: Record<string, unknown>,
  change: string | undefined,
): Record<string, AppliesBecause> {
  if (change === undefined || !removesDoubted(facts, change)) return because
  return Object.fromEntries(
    Object.entries(because).map(([id, why]) => {
      if (why.matched.removes_objects !== true) return [id, why]
      const { removes_objects: _, ...matched } = why.matched
      const question =
        'does your change delete, drop or remove something others use? Its words name nothing it takes away (re-check removes_objects)'
      return [
        id,
        {
          ...why,
          matched,
          unanswered: [...(why.unanswered ?? []), { fact: 'removes_objects', question, drops_if: false }],
        },
      ]
    }),
  )
}
