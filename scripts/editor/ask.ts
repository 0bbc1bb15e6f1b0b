/**
 * npx tsx scripts/editor/ask.ts action=deploy targets=12 emergency=false [format=agents-md|json|ids]
 * npx tsx scripts/editor/ask.ts route=catalogue   (the free catalogue, as JSON)
 *
 * The editor's view of a situated answer: the checklist and the lessons exactly as an agent buying
 * them would get them, rendered by the gateway's own preparation (PREPARE) from this checkout's
 * build output (dist/, run `npx tsx scripts/local/build.ts` first). Offline: no service, no payment.
 * `format=ids` prints one line per item (route, id, when it applies) for grading many situations;
 * `format=sizes` prints each Markdown answer the build holds to a budget, with its size.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROUTINE_DEPLOY, soldMarkdown } from '../../build/checks/markdown-budgets.js'
import { PREPARE } from '../../gateway/datasets/answers.js'
import type { Filters } from '../../gateway/datasets/query.js'
import type { BundleData, BundleManifest, BundleName } from '../../schema/datasets.js'
import { MARKDOWN_BUDGET } from '../../schema/markdown.js'
import { unseal } from '../../schema/sealing.js'

const DIST = 'dist'

/**
 * Every bundle of the build, paid ones unsealed with the build's key, as the Worker reads them
 * (gateway/datasets/bundle-store.ts, whose import of the generated module only the Worker resolves).
 */
async function readDist(): Promise<BundleData> {
  const manifest = JSON.parse(
    await readFile(join(DIST, 'private', 'manifest.json'), 'utf8'),
  ) as BundleManifest
  const { key } = JSON.parse(await readFile(join(DIST, 'private', 'sealing-key.json'), 'utf8')) as {
    key: string
  }
  const entries = await Promise.all(
    (Object.keys(manifest.bundles) as BundleName[]).map(async (name) => {
      const entry = manifest.bundles[name]
      const body = await readFile(join(DIST, 'public', entry.asset), 'utf8')
      const text = entry.access === 'paid' ? await unseal(key, name, body) : body
      return [name, JSON.parse(text) as unknown] as const
    }),
  )
  return Object.fromEntries(entries) as BundleData
}

async function main(args: readonly string[]) {
  const filters: Filters = {}
  for (const arg of args) {
    const at = arg.indexOf('=')
    if (at < 1) throw new Error(`"${arg}" is not name=value`)
    filters[arg.slice(0, at)] = arg.slice(at + 1)
  }
  const { format = 'agents-md', ...situation } = filters
  const data = await readDist()
  if (format === 'sizes') return printBudgets(data)
  const out: string[] = []
  // route=preview alone prints the standing instructions (the free foundational rules), route=catalogue
  // the free catalogue; include=rules is the checklist's one file with the rules in it (the lessons
  // route has no such parameter)
  const routes =
    situation.route === 'preview' || situation.route === 'catalogue'
      ? ([situation.route] as const)
      : situation.include === 'rules'
        ? (['checklist'] as const)
        : (['checklist', 'lessons'] as const)
  delete situation.route
  for (const route of routes) {
    const prepare = PREPARE[route]
    if (!prepare) throw new Error(`no route ${route}`)
    const asked = format === 'ids' ? situation : { ...situation, format }
    const prepared = prepare(data, asked, Date.now())
    if (!prepared.ok) {
      out.push(`## ${route}: ${prepared.problem.status} ${prepared.problem.detail}`)
      continue
    }
    if (format === 'ids') out.push(...idLines(route, prepared.payload()))
    else if (prepared.markdown) out.push(prepared.markdown())
    else out.push(JSON.stringify(prepared.payload(), null, 2))
  }
  console.log(out.join('\n\n'))
}

/** Each Markdown answer the build measures, its size and its budget (build/checks/markdown-budgets.ts). */
function printBudgets(data: BundleData) {
  const measured = [
    ['routine deploy gates', 'checklist', ROUTINE_DEPLOY, MARKDOWN_BUDGET.situation],
    ['routine deploy rules', 'lessons', ROUTINE_DEPLOY, MARKDOWN_BUDGET.situationRules],
    [
      'routine deploy, one file',
      'checklist',
      { ...ROUTINE_DEPLOY, include: 'rules' },
      MARKDOWN_BUDGET.wholeAnswer,
    ],
    ['standing instructions', 'preview', {}, MARKDOWN_BUDGET.situationRules],
    ['whole lessons set', 'lessons', {}, MARKDOWN_BUDGET.wholeLessons],
  ] as const
  for (const [what, route, filters, budget] of measured) {
    const text = soldMarkdown(data, route, filters) ?? ''
    console.log(`${what}: ${new TextEncoder().encode(text).length} of ${budget} bytes`)
  }
}

/** One line per item: its route, id, kind or verdict, and the facts that brought it. */
function idLines(route: string, payload: unknown): string[] {
  const p = payload as {
    checklist?: { id: string; on_fail?: string; when?: string }[]
    rules?: { id: string; kind?: string }[]
    applies_because?: Record<string, unknown>
    playbooks?: { id: string }[]
  }
  // A checklist with include=rules carries both lists: count and print each
  const gates = p.checklist ?? []
  const rules = p.rules ?? []
  const line = (item: { id: string; on_fail?: string; when?: string; kind?: string }) => {
    const tag = item.on_fail !== undefined ? `${item.when ?? ''} ${item.on_fail}` : (item.kind ?? '')
    return `${route}\t${item.id}\t${tag.trim()}\t${JSON.stringify(p.applies_because?.[item.id] ?? {})}`
  }
  const count =
    gates.length && rules.length
      ? `${gates.length} gates + ${rules.length} rules`
      : `${gates.length + rules.length}`
  const lines = [...gates, ...rules].map(line)
  const playbooks = (p.playbooks ?? []).map((b) => `${route}\tplaybook:${b.id}`)
  return [`# ${route}: ${count}`, ...lines, ...playbooks]
}

await main(process.argv.slice(2))
