/**
 * The re-read's Markdown report and console summary. The report proposes; an editor decides, reads
 * the vendor page and edits content/ by hand.
 */
import { stringify } from 'yaml'
import type { RereadResult, RereadStatus } from './reread.js'
import type { TrackerComparison } from './reread-tracker.js'
import { type TrackerRelease, trackerSection } from './reread-tracker-report.js'

export interface ReportMeta {
  /** The day of the re-read (YYYY-MM-DD). */
  date: string
  /** Set when source origins were rewritten to a local server (tests, dry runs). */
  origin?: string
  /** The independent tracker's view of the model-API rows, listed after the first work. */
  tracker?: { comparisons: readonly TrackerComparison[]; release: TrackerRelease }
}

const ORDER: RereadStatus[] = ['changed', 'dropped', 'unreachable', 'kept']

const HEADINGS: Record<RereadStatus, string> = {
  changed: 'Changed: the page answered, the quote is gone',
  dropped: 'Dropped: the page is gone (404 or 410)',
  unreachable: 'Unreachable: no answer we could judge',
  kept: 'Kept: the quote is still on the page',
}

export function counts(results: readonly RereadResult[]): Record<RereadStatus, number> {
  const c: Record<RereadStatus, number> = { kept: 0, changed: 0, dropped: 0, unreachable: 0 }
  for (const r of results) c[r.status]++
  return c
}

export function renderReport(results: readonly RereadResult[], meta: ReportMeta): string {
  const c = counts(results)
  const sorted = [...results].sort((a, b) => a.id.localeCompare(b.id))
  const toRead = sorted.filter((r) => r.page_to_read !== null)
  const out = [
    `# Pricing re-read, ${meta.date}`,
    '',
    `${results.length} rows: ${c.kept} kept, ${c.changed} changed, ${c.dropped} dropped, ${c.unreachable} unreachable.`,
    ...(toRead.length
      ? [
          '',
          `${toRead.length} ${toRead.length === 1 ? 'row has' : 'rows have'} a pricing page not read yet: the first work below.`,
        ]
      : []),
    '',
    "Each row's source page was fetched and its quote looked for verbatim (after collapsing white space). This report changes nothing: content/ is edited by a person, after reading the vendor page. A hint is price-like text seen near the product name, to speed up that reading; it is never data.",
  ]
  if (meta.origin) out.push('', `Source origins were rewritten to ${meta.origin} (paths kept).`)
  if (toRead.length) {
    out.push(
      '',
      `## First work: pricing pages not read yet (${toRead.length})`,
      '',
      'These rows say "price not read yet": the page read is not the vendor pricing page, so they publish no finding. Read the pricing page named here (npm run collect -- <url> --id <row id> drafts the row and proposes the corrections), then publish what it says, or `not-published` / `sales-gated` if that page shows no price.',
      '',
      '| Row | Product | Pricing page to read | Page read so far |',
      '|---|---|---|---|',
    )
    for (const r of toRead)
      out.push(
        `| ${cell(r.id)} | ${cell(`${r.product} (${r.vendor})`)} | ${cell(r.page_to_read ?? '')} | ${cell(r.source_url)} |`,
      )
  }
  if (meta.tracker) out.push('', ...trackerSection(meta.tracker.comparisons, meta.tracker.release))
  for (const status of ORDER) {
    const group = sorted.filter((r) => r.status === status)
    if (group.length === 0) continue
    out.push('', `## ${HEADINGS[status]} (${group.length})`, '')
    if (status === 'kept') {
      out.push('| Row | Product | Match | Source |', '|---|---|---|---|')
      for (const r of group)
        out.push(
          `| ${cell(r.id)} | ${cell(`${r.product} (${r.vendor})`)} | ${r.match ?? ''} | ${cell(r.source_url)} |`,
        )
      continue
    }
    for (const r of group) out.push(...entry(r), '')
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`
}

function entry(r: RereadResult): string[] {
  const lines = [
    `### ${r.id}: ${r.product} (${r.vendor})`,
    '',
    `- Source: ${r.source_url}${r.fetched_url !== r.source_url ? ` (fetched as ${r.fetched_url})` : ''}`,
    `- Result: ${r.http_status === null ? 'no HTTP answer' : `HTTP ${r.http_status}`}; ${r.detail}`,
    `- Quote read on ${r.read_on}:`,
    '',
    ...fenced('text', r.quote),
    '',
  ]
  if (r.status === 'changed') {
    if (r.hints.length)
      lines.push(
        `- Hint only, not checked and never to be copied into content without reading the page: ${r.hints.join('; ')}`,
      )
    else lines.push('- No price-like text found near the product name.')
  }
  if (r.correction)
    lines.push(
      '- Proposed correction stub for content/pricing/corrections.yaml (complete `to` and `why` after reading the page):',
      '',
      '',
      ...fenced('yaml', stringify([r.correction], { lineWidth: 0 }).trimEnd()),
    )
  if (r.status === 'dropped')
    lines.push(
      '- Find where the vendor now publishes this, or record the price as no longer published, by hand.',
    )
  if (r.status === 'unreachable')
    lines.push('- Try again later or read the page by hand; the row is unchanged.')
  return lines
}

/** A fence longer than any backtick run in the text, so a quote can never close it early. */
function fenced(lang: string, text: string): string[] {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return [`${fence}${lang}`, text, fence]
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ')
}

/** One line per row for the console, then the totals. */
export function summaryLines(results: readonly RereadResult[]): string[] {
  const sorted = [...results].sort((a, b) => a.id.localeCompare(b.id))
  const width = Math.max(0, ...sorted.map((r) => r.id.length))
  const c = counts(results)
  const toRead = sorted.filter((r) => r.page_to_read !== null)
  return [
    // The first work for the editors: pricing pages not read yet, each with the URL to read.
    ...toRead.map((r) => `${'to read'.padEnd(11)} ${r.id.padEnd(width)}  ${r.page_to_read}`),
    ...sorted.map((r) => `${r.status.padEnd(11)} ${r.id.padEnd(width)}  ${r.detail}`),
    `${results.length} rows: ${c.kept} kept, ${c.changed} changed, ${c.dropped} dropped, ${c.unreachable} unreachable${toRead.length ? `; ${toRead.length} pricing ${toRead.length === 1 ? 'page' : 'pages'} to read first` : ''}`,
  ]
}
