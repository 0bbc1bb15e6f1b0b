/**
 * Build issues: every problem found in content, collected and reported once, grouped by file.
 */

export interface BuildIssue {
  /** Path of the content file, relative to the content root, or `(content)` for cross-file checks. */
  file: string
  /** The field, written as a dotted path (`incident.postmortem_url`), or `-` for the whole file. */
  field: string
  /** What is wrong. */
  problem: string
  /** What is allowed instead. */
  allowed: string
}

export class BuildFailed extends Error {
  constructor(readonly issues: BuildIssue[]) {
    super(formatReport(issues))
    this.name = 'BuildFailed'
  }
}

/** One block per file, one line per issue: `field: problem (allowed: …)`. */
export function formatReport(all: readonly BuildIssue[]): string {
  // Two checks can find the same problem (a threshold read for the text and again for the spec): once.
  const seen = new Set<string>()
  const issues = all.filter((i) => {
    const key = JSON.stringify([i.file, i.field, i.problem, i.allowed])
    return !seen.has(key) && Boolean(seen.add(key))
  })
  const byFile = new Map<string, BuildIssue[]>()
  for (const issue of issues) byFile.set(issue.file, [...(byFile.get(issue.file) ?? []), issue])
  const files = [...byFile.keys()].sort()
  const lines = [`Build failed: ${issues.length} problem(s) in ${files.length} file(s).`]
  for (const file of files) {
    lines.push('', file)
    for (const i of byFile.get(file) ?? []) lines.push(`  ${i.field}: ${i.problem} (allowed: ${i.allowed})`)
  }
  return lines.join('\n')
}
