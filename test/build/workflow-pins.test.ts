/**
 * This repository follows its own gate `dependencies-pinned-and-staged`: every action a workflow
 * uses is named by a full commit SHA, never by a tag that can be moved (tj-actions/changed-files,
 * CVE-2025-30066).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const WORKFLOWS = '.github/workflows'
const usesLines = () =>
  readdirSync(WORKFLOWS)
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((f) =>
      readFileSync(join(WORKFLOWS, f), 'utf8')
        .split('\n')
        .filter((line) => /^\s*-?\s*uses:/.test(line))
        .map((line) => ({ file: f, line: line.trim() })),
    )

describe('workflow pins', () => {
  it('behavior: the workflows use at least one action, so the check below reads something', () => {
    expect(usesLines().length).toBeGreaterThan(0)
  })

  it('behavior: every action a workflow uses is pinned by a full 40-hex commit SHA', () => {
    const unpinned = usesLines().filter(
      ({ line }) => !/uses:\s*[\w.-]+\/[\w./-]+@[0-9a-f]{40}(\s|$)/.test(line),
    )
    expect(unpinned).toEqual([])
  })
})
