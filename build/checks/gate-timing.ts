/**
 * A gate is checked at the time it says (`when`: before, between-stages or after), so its pass
 * condition must be one that can hold then. The test is deliberately simple and explainable:
 *
 * - A gate that reads the change's outcome cannot be checked before the change: an input named
 *   `…_after`, or a pass condition or input that says "after the change" (or deploy, swap, revert,
 *   upgrade, push, rollout, restart, apply, migration, release, update). Before the change nothing
 *   has an outcome yet, so such a gate would fail and block the change it is meant to verify (the
 *   emergency certificate swap was blocked by its own after-the-swap lifetime check this way). The
 *   gate's prose `check` counts too: it is what an editor writes first.
 * - A gate whose pass condition needs something "before the change starts" cannot be checked only
 *   after it: by then the moment it speaks of has passed.
 */
import type { Gate } from '../../schema/content.js'
import type { BuildIssue } from '../stages/issues.js'

const OUTCOME_NOUNS =
  'change|changes|deploy|deployment|swap|revert|rollback|upgrade|push|rollout|restart|apply|migration|release|update|renewal'

/** "after the deploy", "after any DNS change", "after each swap". */
const SPEAKS_OF_AFTER = new RegExp(
  `\\bafter (?:the |any |each |a |every )?(?:[a-z-]+ )?(?:${OUTCOME_NOUNS})\\b`,
  'i',
)
/** "before the change starts", "before the rollout begins". */
const SPEAKS_OF_BEFORE_START = new RegExp(
  `\\bbefore (?:the |any )?(?:${OUTCOME_NOUNS}) (?:starts|begins)\\b`,
  'i',
)

/** Why the gate's pass condition cannot hold at the time it names, one entry per reason. */
export function gateTimingBreaks(
  gate: Pick<Gate, 'when' | 'check' | 'check_spec'>,
): Omit<BuildIssue, 'file'>[] {
  const spec = gate.check_spec
  const out: Omit<BuildIssue, 'file'>[] = []
  if (gate.when === 'before') {
    const outcomeInput = spec.inputs.find((i) => /_after$/.test(i.name))
    const said = [
      ['check', gate.check] as const,
      ['check_spec.pass_when', spec.pass_when] as const,
      ...spec.inputs.map((i, n) => [`check_spec.inputs.${n}.read_with`, i.read_with] as const),
    ].find(([, text]) => SPEAKS_OF_AFTER.test(text))
    if (outcomeInput)
      out.push({
        field: 'when',
        problem: `marked before, but input "${outcomeInput.name}" reads the change's outcome, which does not exist before the change`,
        allowed: 'when: after (or between-stages), or an input that can be read before the change',
      })
    else if (said)
      out.push({
        field: 'when',
        problem: `marked before, but ${said[0]} speaks of the state after the change ("${said[1].match(SPEAKS_OF_AFTER)?.[0]}")`,
        allowed: 'when: after (or between-stages), or a pass condition that can hold before the change',
      })
  }
  if (gate.when === 'after' && SPEAKS_OF_BEFORE_START.test(spec.pass_when))
    out.push({
      field: 'when',
      problem: `marked after, but check_spec.pass_when needs something before the change starts ("${spec.pass_when.match(SPEAKS_OF_BEFORE_START)?.[0]}")`,
      allowed: 'when: before, or a pass condition that can hold after the change',
    })
  return out
}
