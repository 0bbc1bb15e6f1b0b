/**
 * The date a row's price is as of (content/FORMAT.md, "As-of date"): the date the vendor page states
 * where it states one, else the capture date of the stored copy read where the store gives one, else
 * unknown. Never the day we read the copy: a copy read today can hold a page a year old.
 */
import type { PricingRow } from '../../schema/content.js'
import { asOfDay } from '../../schema/price-dates.js'
import { pageStatesOn } from './page-date.js'

export type AsOfSource = 'page-states-date' | 'copy-captured-on' | 'unknown'

export interface PriceAsOf {
  /** YYYY-MM-DD, YYYY-MM when the page names only a month, or "unknown". */
  as_of: string
  as_of_source: AsOfSource
}

export function priceAsOf(row: Pick<PricingRow, 'page_states_date' | 'copy_captured_on'>): PriceAsOf {
  const stated = pageStatesOn(row.page_states_date)
  if (stated) return { as_of: stated, as_of_source: 'page-states-date' }
  if (row.copy_captured_on) return { as_of: row.copy_captured_on, as_of_source: 'copy-captured-on' }
  return { as_of: 'unknown', as_of_source: 'unknown' }
}

export { asOfDay }

/** How the page and the JSON say where the as-of date came from. */
export const AS_OF_SOURCE_TEXT: Record<AsOfSource, string> = {
  'page-states-date': "the page's own date",
  'copy-captured-on': "the stored copy's capture date",
  unknown: 'the page states no date and the stored copy gives no capture date',
}
