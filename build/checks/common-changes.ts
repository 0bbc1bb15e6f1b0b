/**
 * The common changes of content/changes.yaml name only actions and facts that exist, with values
 * the facts accept: each one is read exactly as the service reads a situation.
 */
import type { CommonChange } from '../../schema/content.js'
import { type Fact, readSituation } from '../../schema/situation.js'
import type { BuildIssue } from '../stages/issues.js'

export const CHANGES_FILE = 'changes.yaml'

export function changeBreaks(
  changes: readonly CommonChange[],
  facts: readonly Fact[],
): Omit<BuildIssue, 'file'>[] {
  return changes.flatMap((c, i) => {
    const read = readSituation([['action', c.actions], ...Object.entries(c.facts)], facts)
    return 'parameter' in read
      ? [
          {
            field: `${i}.${read.parameter === 'action' ? 'actions' : `facts.${read.parameter}`}`,
            problem: read.detail,
            allowed: JSON.stringify(read.allowed),
          },
        ]
      : []
  })
}
