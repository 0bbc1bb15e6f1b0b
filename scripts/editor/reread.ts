/**
 * npm run reread: the monthly re-read of every pricing row against its vendor page.
 *
 *   npm run reread                                   writes reread-report.md, prints a summary
 *   npm run reread -- --out path/report.md           report elsewhere
 *   npm run reread -- --origin http://127.0.0.1:PORT read every page from a local server instead:
 *                    https://vendor.example/a/b?c is fetched as http://127.0.0.1:PORT/a/b?c
 *   npm run reread -- --content dir --date YYYY-MM-DD --concurrency 4 --strict
 *
 * --strict exits 2 when any row is not kept (for a scheduled job that should page someone).
 * It never writes under content/: the report proposes corrections; a person makes them. It also
 * compares the model-API rows with the independent tracker @pydantic/genai-prices (report only).
 */
import { writeFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  type RereadResult,
  renderReport,
  rereadRow,
  summaryLines,
  today,
  undiciFetcher,
} from '../../build/reread/reread.js'
import { loadPricingRows } from '../../build/reread/reread-rows.js'
import { compareWithTracker } from '../../build/reread/reread-tracker.js'
import { trackerRelease, trackerSummaryLines } from '../../build/reread/reread-tracker-report.js'
import { serviceUrlsFromEnv } from '../local/service-urls.js'

const { values } = parseArgs({
  options: {
    out: { type: 'string', default: 'reread-report.md' },
    origin: { type: 'string' },
    content: { type: 'string', default: 'content' },
    date: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    strict: { type: 'boolean', default: false },
  },
})

const contentDir = resolve(values.content)
const out = resolve(values.out)
// The one write this script makes must not land in content/.
if (!relative(contentDir, out).startsWith('..')) {
  console.error(`refusing to write the report inside ${values.content}/: choose another --out`)
  process.exit(1)
}
if (values.origin && !/^https?:\/\/[^/]+\/?$/.test(values.origin)) {
  console.error('--origin must be a bare origin such as http://127.0.0.1:8080')
  process.exit(1)
}
const date = values.date ?? today()
const concurrency = Math.max(1, Number(values.concurrency) || 4)

const { rows, problems } = await loadPricingRows(contentDir)
if (problems.length) {
  console.error(`invalid pricing rows (run npm run build for the full report):\n${problems.join('\n')}`)
  process.exit(1)
}

const fetcher = undiciFetcher({ origin: values.origin, contact: serviceUrlsFromEnv().contact })
const results: RereadResult[] = []
let next = 0
// A few pages at a time: polite to vendors, and a slow page does not hold up the rest.
await Promise.all(
  Array.from({ length: Math.min(concurrency, rows.length) }, async () => {
    while (next < rows.length) {
      const row = rows[next++]
      if (row) results.push(await rereadRow(row, fetcher, { today: date }))
    }
  }),
)
await fetcher.close()

// The independent tracker is read now, from the package installed, and only reported.
const tracker = { comparisons: compareWithTracker(rows, date), release: await trackerRelease() }
await writeFile(out, renderReport(results, { date, origin: values.origin, tracker }))
for (const line of summaryLines(results)) console.log(line)
for (const line of trackerSummaryLines(tracker.comparisons, tracker.release)) console.log(line)
console.log(`report: ${relative(process.cwd(), out) || out}`)
if (values.strict && results.some((r) => r.status !== 'kept')) process.exit(2)
