/**
 * The tracker comparison as a section of the re-read report and as console lines. Both sources'
 * dates sit beside each disagreement: ours is the day the vendor page was read (and the page's own
 * date where it states one); the tracker's is the release of the package version installed.
 */
import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import type { TrackerComparison } from './reread-tracker.js'

/** The independent tracker: MIT, a devDependency that ships its price data (no network to read it). */
export const TRACKER_PACKAGE = '@pydantic/genai-prices'

export interface TrackerRelease {
  package: string
  version: string
  /** When that version was published (YYYY-MM-DD), from the npm registry; null when it did not answer. */
  published: string | null
}

/** The installed version, read from the package's own package.json. */
export async function installedTrackerVersion(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve(TRACKER_PACKAGE)
  const manifest = JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')) as {
    version: string
  }
  return manifest.version
}

/** Asks the registry, through npm itself, when the installed version was published. */
export async function trackerRelease(): Promise<TrackerRelease> {
  const version = await installedTrackerVersion()
  try {
    const { stdout } = await promisify(execFile)(
      'npm',
      ['view', `${TRACKER_PACKAGE}@${version}`, 'time', '--json'],
      {
        timeout: 30_000,
      },
    )
    const times = JSON.parse(stdout) as Record<string, string>
    return { package: TRACKER_PACKAGE, version, published: times[version]?.slice(0, 10) ?? null }
  } catch {
    return { package: TRACKER_PACKAGE, version, published: null }
  }
}

const usd = (n: number) => `$${n}`

function trackerDate(release: TrackerRelease): string {
  return `${release.package} ${release.version}, ${release.published ? `published ${release.published}` : 'publication date not known (the registry did not answer)'}`
}

function oursDate(c: TrackerComparison): string {
  return `read ${c.ours.read_on}${c.ours.page_states_date ? `, page states ${c.ours.page_states_date}` : ''}`
}

function theirs(c: TrackerComparison): string {
  if (c.verdict === 'not-mapped')
    return 'no tracker model named for this row (build/reread/reread-tracker.ts)'
  if (!c.tracker) return `no price for ${c.tracker_model?.model} (${c.tracker_model?.provider})`
  return `${c.tracker.input_usd_per_mtok.map(usd).join(' or ')} for ${c.tracker.model_id}`
}

const VERDICT_TEXT: Record<TrackerComparison['verdict'], string> = {
  disagrees: 'disagrees',
  'not-listed': 'not listed',
  'not-mapped': 'not mapped',
  agrees: 'agrees',
}

export function trackerSection(comparisons: readonly TrackerComparison[], release: TrackerRelease): string[] {
  const disagreements = comparisons.filter((c) => c.verdict === 'disagrees').length
  const lines = [
    `## Independent tracker: ${release.package} (${comparisons.length} model-API ${comparisons.length === 1 ? 'row' : 'rows'}, ${disagreements} ${disagreements === 1 ? 'disagreement' : 'disagreements'})`,
    '',
    `Our price per 1M input tokens beside the price the tracker's shipped data applies on the day of this re-read (${trackerDate(release)}). A disagreement is a prompt to re-read the vendor page, never a reason to change a price: the index publishes only what the vendor's own page says. Rows are listed in the order to re-read them: disagreements first, the one read longest ago first.`,
    '',
    '| Row | Verdict | Ours (USD / 1M input tokens) | Our date | Tracker | Tracker sources | Vendor page to re-read |',
    '|---|---|---|---|---|---|---|',
  ]
  for (const c of comparisons)
    lines.push(
      `| ${cell(c.id)} | ${VERDICT_TEXT[c.verdict]} | ${usd(c.ours.unit_price_usd)} | ${cell(oursDate(c))} | ${cell(theirs(c))} | ${cell(c.tracker_sources.join(' '))} | ${cell(c.ours.source_url)} |`,
    )
  return lines
}

/** One console line per model-API row, disagreements first. */
export function trackerSummaryLines(
  comparisons: readonly TrackerComparison[],
  release: TrackerRelease,
): string[] {
  const width = Math.max(0, ...comparisons.map((c) => c.id.length))
  return [
    `tracker: ${trackerDate(release)}; a disagreement is a prompt to re-read, never a price change`,
    ...comparisons.map(
      (c) =>
        `${VERDICT_TEXT[c.verdict].padEnd(11)} ${c.id.padEnd(width)}  ours ${usd(c.ours.unit_price_usd)} (${oursDate(c)}); tracker ${theirs(c)}`,
    ),
  ]
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ')
}
