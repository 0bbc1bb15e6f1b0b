/**
 * A query that cannot be right (#43 item 1): the facts an agent sends are trusted, so when its own
 * words for the change contradict one, the answer says which fact to re-check and what answering it
 * would change, rather than answer the wrong situation quietly. Two facts are read this way:
 * `emergency` (a deadline within the hour told as a routine change gets the planned path's waits,
 * and a maintenance window told as an emergency loses the checks a planned change has time for) and
 * `removes_objects` (told yes for a change whose words take nothing away, nor delete by age, it
 * brings the deletion checks: an owner to ask, a disuse window, a stop when usage cannot be read;
 * told no for a change that deletes or makes something again, it leaves them out). A change that
 * takes access away (a block, a revocation) or puts something instead of another removes too.
 * The note only asks: the fact as sent still decides the items (a "move" into a new store may
 * delete the old copies, which the words need not say).
 */
import { premisesNamedBy } from './change-match.js'

/** The longest deadline, in minutes, that makes a change an emergency. */
export const EMERGENCY_DEADLINE_MINUTES = 120

/** "in 40 minutes", "within 2h", "under 90 min": a deadline and its unit. */
const DEADLINE = /\b(?:in|within|under|next|by)\s+(\d{1,4})\s*-?\s*(minutes?|mins?|m|hours?|hrs?|h)\b/
/** Words of harm happening now or of a deadline today (an expiring certificate, an outage). */
// A hotfix or a certificate "expiring" in days is often routine: the deadline itself decides.
const URGENT = /\b(incident|outage|sev-?[01]|p[01]|urgent|asap|emergency|deadline|expired|today|tonight)\b/
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

/** Words of moving something to a new place or form: the old one often goes, unsaid. */
const MOVES =
  /\b(move|moves|moving|migrate|migrating|switch|switching|replace|replacing|swap|swapping|consolidate|merge|instead|stop using|no longer|phase out|rely on)\b/

/**
 * A deletion the change prevents or waits for, not one it makes: "before unread segments are
 * deleted", "without dropping the table", "so nothing is purged". Read out before the change's own
 * deletion words are.
 */
const PREVENTED_DELETION =
  /\b(?:before|without|not|never|no|nothing|prevent\w*|avoid\w*|stop\w*|until|so)\s+(?:\S+\s+){0,3}?(?:delet\w*|drop\w*|remov\w*|purg\w*|wip\w*|destroy\w*|truncat\w*)\b/g

/** Words of taking access away (a block, a revocation, a tighter rule): what others used goes. */
const TAKES_ACCESS =
  /\b(block|blocks|blocking|revoke|revoking|deny|denying|restrict|restricting|deactivate|deactivating|disable|disabling|tighten|tightening|lock down|offboard|offboarding)\b/

/** Words of making something again: what the old one held goes with it, unsaid. */
const REMAKES =
  /\b(recreate|recreating|rebuild|rebuilding|reinstall|reinstalling|reset|resetting|reprovision|wipe)\b/

function removesRecheck(facts: Record<string, unknown>, change: string): string[] {
  const names = premisesNamedBy(change)
  if (facts.removes_objects === false) {
    const makes = premisesNamedBy(change.replace(PREVENTED_DELETION, ' '))
    const said = REMAKES.exec(change)?.[0] ?? (makes('deletion') ? 'a deletion' : undefined)
    return said
      ? [
          `re-check removes_objects: your change says "${said}" and removes_objects=false was sent; if what it deletes or makes again holds anything that must be kept (rows or files made by hand, data no seed or backup brings back), ask again with removes_objects=true (then the deletion checks come: an owner to ask, a copy you can restore)`,
        ]
      : []
  }
  // Lowering a retention or a lifecycle age deletes what falls outside it: that is a deletion too.
  if (facts.removes_objects !== true || names('deletion') || names('deletion-by-age')) return []
  if (MOVES.test(change) || TAKES_ACCESS.test(change)) return []
  return [
    're-check removes_objects: your change names nothing it deletes, drops or removes and removes_objects=true was sent; if it takes nothing away that others use, ask again with removes_objects=false (then the deletion checks leave)',
  ]
}
