/**
 * Collect: read every content file and parse its YAML. Unreadable YAML becomes an issue, not a crash.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { BuildIssue } from './issues.js'

export interface RawFile {
  /** Path relative to the content root, e.g. `rules/read-back.yaml`. */
  file: string
  data: unknown
}

export interface RawContent {
  topics: RawFile | null
  /** The expected inventory (content/inventory.yaml). */
  inventory: RawFile | null
  /** The named thresholds (content/thresholds.yaml). */
  thresholds: RawFile | null
  /** The action vocabulary (content/actions.yaml). */
  actions: RawFile | null
  /** The situation facts (content/facts.yaml). */
  facts: RawFile | null
  /** Common changes and the actions that fit them (content/changes.yaml). */
  changes: RawFile | null
  /** The situations the router is judged on (content/scenarios/). */
  scenarios: RawFile[]
  rules: RawFile[]
  playbooks: RawFile[]
  gates: RawFile[]
  pricingRows: RawFile[]
  corrections: RawFile | null
  /** The trap layer, one file per technology (content/traps/); a content tree without it has none. */
  traps: RawFile[]
  harm: RawFile | null
  /** What a plan must say that no item can know (content/plan-points.yaml); optional, like traps. */
  planPoints: RawFile | null
}

export async function collect(root: string, issues: BuildIssue[]): Promise<RawContent> {
  return {
    topics: await readOne(root, 'topics.yaml', issues),
    inventory: await readOne(root, 'inventory.yaml', issues),
    thresholds: await readOne(root, 'thresholds.yaml', issues),
    actions: await readOne(root, 'actions.yaml', issues),
    facts: await readOne(root, 'facts.yaml', issues),
    changes: await readOne(root, 'changes.yaml', issues),
    scenarios: await readFolder(root, 'scenarios', issues),
    rules: await readFolder(root, 'rules', issues),
    playbooks: await readFolder(root, 'playbooks', issues),
    gates: await readFolder(root, 'gates', issues),
    pricingRows: await readFolder(root, 'pricing/rows', issues),
    corrections: await readOne(root, 'pricing/corrections.yaml', issues),
    traps: await readFolder(root, 'traps', issues, { optional: true }),
    harm: await readOne(root, 'harm.yaml', issues),
    planPoints: await readOne(root, 'plan-points.yaml', issues, { optional: true }),
  }
}

async function readFolder(
  root: string,
  folder: string,
  issues: BuildIssue[],
  { optional = false } = {},
): Promise<RawFile[]> {
  let names: string[]
  try {
    names = (await readdir(join(root, folder))).sort()
  } catch {
    if (optional) return []
    issues.push({
      file: folder,
      field: '-',
      problem: 'folder is missing',
      allowed: 'a folder of .yaml files',
    })
    return []
  }
  const files: RawFile[] = []
  for (const name of names) {
    const file = `${folder}/${name}`
    if (!name.endsWith('.yaml')) {
      issues.push({ file, field: '-', problem: 'not a .yaml file', allowed: 'only <id>.yaml files here' })
      continue
    }
    const raw = await readOne(root, file, issues)
    if (raw) files.push(raw)
  }
  return files
}

async function readOne(
  root: string,
  file: string,
  issues: BuildIssue[],
  { optional = false } = {},
): Promise<RawFile | null> {
  let text: string
  try {
    text = await readFile(join(root, file), 'utf8')
  } catch {
    if (optional) return null
    issues.push({ file, field: '-', problem: 'file is missing', allowed: 'see content/FORMAT.md' })
    return null
  }
  try {
    return { file, data: parse(text, { uniqueKeys: true }) }
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error)
    issues.push({ file, field: '-', problem: `not valid YAML: ${message}`, allowed: 'YAML 1.2' })
    return null
  }
}
