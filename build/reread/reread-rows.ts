/**
 * The rows the re-read checks, read straight from content/pricing/rows/*.yaml and checked against
 * the PricingRow schema. Read-only: the re-read never writes under content/.
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse } from 'yaml'
import { PricingRow } from '../../schema/content.js'

export interface LoadedRows {
  rows: PricingRow[]
  /** Files that do not parse or do not match the schema: `npm run build` reports them in full. */
  problems: string[]
}

export async function loadPricingRows(contentDir: string): Promise<LoadedRows> {
  const folder = join(contentDir, 'pricing', 'rows')
  const names = (await readdir(folder)).filter((n) => n.endsWith('.yaml')).sort()
  const rows: PricingRow[] = []
  const problems: string[] = []
  for (const name of names) {
    const file = join(folder, name)
    try {
      const parsed = PricingRow.safeParse(parse(await readFile(file, 'utf8')))
      if (parsed.success) rows.push(parsed.data)
      else
        problems.push(
          `${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        )
    } catch (error) {
      problems.push(`${file}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return { rows, problems }
}
