/**
 * The human-readable pricing index page (placeholder until the pricing issue writes the full page).
 */
import type { ChangesBundle, PricingBundle } from '../schema/datasets.js'

export function pricingPage(pricing: PricingBundle, changes: ChangesBundle): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>AI pricing index</title></head>
<body><h1>AI pricing index</h1><p>${pricing.rows.length} rows, ${changes.corrections.length} corrections.</p></body></html>
`
}
