/**
 * Each trap has a scenario the build keeps: asking the checklist with the trap's technology and its
 * first action must bring the trap into the answer (in full, or as an "also consider" line). The
 * answer is prepared by the gateway's own code, so what is checked is what a buyer gets.
 */
import { PREPARE } from '../../gateway/datasets/answers.js'
import type { BundleData } from '../../schema/datasets.js'
import type { BuildIssue } from '../stages/issues.js'
import { TRAPS_FOLDER } from './trap-files.js'

interface Line {
  kind: string
  id: string
}

export function trapScenarioIssues(data: BundleData): BuildIssue[] {
  const prepare = PREPARE.checklist
  if (!prepare) throw new Error('no checklist route')
  const issues: BuildIssue[] = []
  for (const file of data.traps.technologies)
    file.traps.forEach((trap, i) => {
      const action = trap.actions[0] as string
      const asked = { technologies: file.technology, action }
      const prepared = prepare(data, asked, 0)
      const answer = prepared.ok
        ? (prepared.payload() as { ranked?: Line[]; also_consider?: Line[] })
        : { ranked: [], also_consider: [] }
      const lines = [...(answer.ranked ?? []), ...(answer.also_consider ?? [])]
      if (!lines.some((l) => l.kind === 'trap' && l.id === trap.id))
        issues.push({
          file: `${TRAPS_FOLDER}/${file.technology}.yaml`,
          field: `traps.${i}`,
          problem: `asking technologies=${file.technology}&action=${action} does not return ${trap.id}${prepared.ok ? '' : ` (${prepared.problem.status}: ${prepared.problem.detail})`}`,
          allowed: 'an answer holding the trap',
        })
    })
  return issues
}
