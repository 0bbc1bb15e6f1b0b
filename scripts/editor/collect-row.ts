/**
 * npm run collect: the editor's tool that turns a vendor page into a draft pricing row.
 *
 *   npm run collect -- <url>                       draft content/pricing/drafts/<id>.yaml
 *   npm run collect -- <url> --id <row id>         for a row that exists: the draft plus
 *                                                  content/pricing/drafts/<id>.corrections.yaml
 *   npm run collect -- <url> --stdout              print the draft instead of writing it
 *   npm run collect -- <url> --out dir --date YYYY-MM-DD --content dir
 *   npm run collect -- <url> --origin http://127.0.0.1:PORT   read the page from a local server
 *                                                  (the draft still cites <url>)
 *
 * It fetches the page (the configured contact in its User-Agent, as the re-read does), finds the
 * price statements and sales wording on it, and writes a draft whose quote is a line copied from the
 * fetched text. It never publishes: drafts go to a folder the build ignores (and git too); the editor
 * reviews, moves the row into content/pricing/rows/ by hand, and the build's checks apply.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parse, stringify } from 'yaml'
import { CollectRefused, type Draft, draftRow, proposedCorrections } from '../../build/pricing/price-draft.js'
import { rewriteOrigin, today, undiciFetcher } from '../../build/reread/reread.js'
import { PricingRow } from '../../schema/content.js'
import { serviceUrlsFromEnv } from '../local/service-urls.js'

export const COLLECT_READER = {
  tool: 'collect',
  purpose: 'an editor reading a vendor pricing page to draft a row, by hand, for the pricing index',
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    id: { type: 'string' },
    out: { type: 'string', default: join('content', 'pricing', 'drafts') },
    content: { type: 'string', default: 'content' },
    origin: { type: 'string' },
    date: { type: 'string' },
    stdout: { type: 'boolean', default: false },
  },
})

const url = positionals[0]
if (!url || positionals.length > 1) {
  console.error('usage: npm run collect -- <vendor page URL> [--id <row id>] [--stdout] [--out dir]')
  process.exit(1)
}
if (!/^https:\/\//.test(url)) {
  console.error(
    'the row cites the vendor page over https: pass its https:// URL (use --origin to read it locally)',
  )
  process.exit(1)
}
if (values.id && !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(values.id)) {
  console.error('--id is a row id: lowercase words joined by hyphens')
  process.exit(1)
}
if (values.origin && !/^https?:\/\/[^/]+\/?$/.test(values.origin)) {
  console.error('--origin must be a bare origin such as http://127.0.0.1:8080')
  process.exit(1)
}
const contentDir = resolve(values.content)
const outDir = resolve(values.out)
// Drafts never land among the published rows.
if (!relative(join(contentDir, 'pricing', 'rows'), outDir).startsWith('..')) {
  console.error(
    'refusing to write a draft into content/pricing/rows/: the editor moves a reviewed row there by hand',
  )
  process.exit(1)
}
const date = values.date ?? today()

const fetcher = undiciFetcher({
  origin: values.origin,
  contact: serviceUrlsFromEnv().contact,
  reader: COLLECT_READER,
})
let draft: Draft
try {
  const page = await fetcher(url)
  draft = draftRow({ ...page, source_url: url }, { id: values.id, today: date })
} catch (error) {
  await fetcher.close()
  const why = error instanceof CollectRefused ? error.message : `could not read the page: ${String(error)}`
  console.error(`no draft written: ${why}`)
  process.exit(1)
}
await fetcher.close()

const id = draft.row.id
const existingFile = join(contentDir, 'pricing', 'rows', `${id}.yaml`)
const existing = await readFile(existingFile, 'utf8').then(
  (text) => PricingRow.parse(parse(text)),
  () => null,
)
const corrections = existing ? proposedCorrections(existing, draft.row, date) : []

const header = [
  `# DRAFT, not published. Collected by npm run collect from ${url}${values.origin ? ` (read via ${values.origin})` : ''} on ${date}.`,
  '# The quote is a line copied from the fetched page. Review every field against the page, then move',
  '# the row into content/pricing/rows/ by hand; npm run build checks it there.',
  ...draft.todo.map((t) => `# - ${t}`),
  '# Price statements found on the page:',
  ...(draft.prices.length
    ? draft.prices.map(
        (p) =>
          `#   ${p.written}${p.unit ? ` per ${p.unit}` : ''}${p.period ? ` (${p.period})` : ''}${p.inRange ? ' [range]' : ''}: ${p.line}`,
      )
    : ['#   none']),
  '# Sales wording found on the page:',
  ...(draft.sales.length ? draft.sales.map((s) => `#   "${s.wording}": ${s.line}`) : ['#   none']),
]
const rowYaml = `${header.join('\n')}\n${stringify(draft.row, { lineWidth: 0 })}`
const correctionsYaml = corrections.length
  ? `# PROPOSED corrections for ${id} (the row exists and is not overwritten). Confirm each on the page,\n# then add it to content/pricing/corrections.yaml and edit the row by hand.\n${stringify(corrections, { lineWidth: 0 })}`
  : null

if (values.stdout) {
  process.stdout.write(rowYaml)
  if (correctionsYaml) process.stdout.write(`---\n${correctionsYaml}`)
} else {
  await mkdir(outDir, { recursive: true })
  const rowOut = join(outDir, `${id}.yaml`)
  await writeFile(rowOut, rowYaml)
  console.log(`draft: ${relative(process.cwd(), rowOut)}`)
  if (correctionsYaml) {
    const corrOut = join(outDir, `${id}.corrections.yaml`)
    await writeFile(corrOut, correctionsYaml)
    console.log(`proposed corrections (${corrections.length}): ${relative(process.cwd(), corrOut)}`)
  } else if (existing) console.log(`row ${id} exists and the page reads the same: no correction proposed`)
}
if (values.origin) console.log(`read ${rewriteOrigin(url, values.origin)} for ${url}`)
