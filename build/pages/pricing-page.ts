/**
 * The human-readable pricing index page (/pricing/): static HTML with inline CSS and inline SVG
 * charts, no script and no outside request. Built only from the bundles, so the same content on the
 * same as-of date gives the same bytes: the one date it carries is the freshness as_of (which rows
 * are due for re-read), and it has no live numbers.
 */
import type { ServiceUrls } from '../../schema/config.js'
import type { ChangesBundle, Comparable, PricingBundle, PublishedPricingRow } from '../../schema/datasets.js'
import {
  DATASET_NAME,
  methodStatement,
  PAID_ADDS,
  PRIVACY_STATEMENT,
  RIGHT_OF_REPLY,
} from '../../schema/pricing-index.js'
import { PRICE, routeByName } from '../../schema/routes.js'
import { DISCLOSURE_RULE, Submission } from '../../schema/submission.js'
import {
  INDEX_CATEGORIES,
  type IndexCategory,
  PRICING_MODELS,
  SUBMISSION_CATEGORIES,
} from '../../schema/vocabulary.js'
import { CATEGORY_TITLES } from './category-names.js'
import { escapeHtml } from './html.js'
import { categoryChart } from './pricing-chart.js'
import { comparablesList } from './pricing-comparables.js'
import { correctionsTable } from './pricing-corrections-table.js'
import { rowsTable } from './pricing-rows-table.js'
import { PRICING_PAGE_CSS } from './pricing-style.js'

/** Links are root-relative: the page is served by the same origin as the API (/pricing/ on base_url). */
const path = (name: string) => routeByName(name).path

export function pricingPage(pricing: PricingBundle, changes: ChangesBundle, urls: ServiceUrls): string {
  const rows = pricing.rows
  const {
    publish_a_price: priced,
    sales_gated: gated,
    no_published_price: unpriced,
    price_not_read: notRead,
  } = pricing.counts
  const categories = INDEX_CATEGORIES.map((category) => ({
    category,
    rows: rows.filter((r) => r.category === category),
    comparable: pricing.comparables.find((c) => c.category === category),
  }))
  const latest = pricing.latest_correction
  const fresh = pricing.freshness
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(`${capitalise(DATASET_NAME)}: published prices, read off vendor pages`)}</title>
<meta name="description" content="${escapeHtml(`Published prices of ${rows.length} AI products, each with a verbatim quote from the vendor's own page and the date it was read. A vendor is said to publish no price only when its own pricing page was read and shows none.`)}">
<style>${PRICING_PAGE_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(capitalise(DATASET_NAME))}</h1>
<p class="lede">What AI products cost, as their vendors publish it. Every row below was read off the vendor's own page, carries the verbatim quote it rests on and the date it was read. Where the vendor's pricing page was read and shows no price, the row says so; where that page has not been read yet, the row says "price not read yet" and names the page, and is counted apart.</p>
<ul class="facts">
<li><strong>${rows.length}</strong> products in <strong>${categories.filter((c) => c.rows.length).length}</strong> categories</li>
<li><strong>${priced}</strong> publish a price</li>
<li><strong>${gated}</strong> send at least one tier to a sales call</li>
<li><strong>${unpriced}</strong> publish no price on the pricing page we read</li>
<li><strong>${notRead}</strong> price not read yet (pricing page still to read)</li>
<li id="freshness"><strong>${fresh.due_for_reread}</strong> due for re-read: price as of more than ${fresh.reread_period_days} days before <time datetime="${escapeHtml(fresh.as_of)}">${escapeHtml(fresh.as_of)}</time>, the day this page was built, or, where the price's date is unknown, read more than ${fresh.reread_period_days} days before it (rows are re-read monthly)</li>
<li id="as-of-unknown"><strong>${fresh.undated}</strong> with the price's date unknown: the page states no date and the stored copy read gives no capture date (the day we read a copy is not the day its price was set), so none of them is known to be current</li>
<li id="dated"><strong>${fresh.dated}</strong> of ${rows.length} dated${fresh.oldest_dated ? `; the oldest dated price (${escapeHtml(fresh.oldest_dated.product)}) is as of <time datetime="${escapeHtml(fresh.oldest_dated.as_of)}">${escapeHtml(fresh.oldest_dated.as_of)}</time>, <strong>${fresh.oldest_dated.age_days}</strong> days before this page was built` : ''}</li>
<li>Latest correction: <strong>${latest ? `<time datetime="${escapeHtml(latest)}">${escapeHtml(latest)}</time>` : 'none yet'}</strong></li>
</ul>
<p>The same rows, with derived comparables, are sold to agents as JSON at <code>GET ${escapeHtml(path('pricing'))}</code> (${escapeHtml(PRICE.display)} per query, paid per call over HTTP 402, no account); dated corrections alone at <code>GET ${escapeHtml(path('changes'))}</code>. The free descriptor is at <a href="${escapeHtml(path('index'))}">${escapeHtml(path('index'))}</a>.</p>
<p>${escapeHtml(PAID_ADDS)}</p>
<nav aria-label="Contents"><ul>
<li><a href="#method">How rows are made</a></li>
${categories.map((c) => `<li><a href="#${c.category}">${escapeHtml(CATEGORY_TITLES[c.category])}</a> (${c.rows.length})</li>`).join('\n')}
<li><a href="#corrections">Corrections log</a></li>
<li><a href="#crowd">Crowd submissions and aggregates</a></li>
<li><a href="#right-of-reply">Right of reply</a></li>
<li><a href="#privacy">Privacy</a></li>
</ul></nav>
</header>
<main>
<section id="method" aria-labelledby="method-h">
<h2 id="method-h">How rows are made</h2>
<p class="statement">${escapeHtml(methodStatement(pricing.counts, pricing.comparables))}</p>
<p>Charts draw each product's published price as a bar. Prices in different units (per month, per resolution, per million tokens…) are never put on one scale: each unit has its own group and its own zero-based scale, so a bar compares only with bars in the same group. A product with no published price is drawn as a dashed box saying <span class="marker">not published</span> or <span class="marker">sales call</span> (what its pricing page shows), or <span class="marker">price not read yet</span> (its pricing page has not been read; the row names it), never as a zero.</p>
</section>
${categories.map((c) => categorySection(c.category, c.rows, c.comparable)).join('\n')}
<section id="corrections" aria-labelledby="corrections-h">
<h2 id="corrections-h">Corrections log</h2>
<p>Latest correction: <strong>${latest ? `<time datetime="${escapeHtml(latest)}">${escapeHtml(latest)}</time>` : 'none yet'}</strong>. ${changes.corrections.length} ${changes.corrections.length === 1 ? 'correction' : 'corrections'} in all. Every change to a published row is logged here with the date it was made, the field, the old and new value and why; agents get the same log at <code>GET ${escapeHtml(path('changes'))}?since=YYYY-MM-DD</code>.</p>
${correctionsTable(changes.corrections, rows)}
</section>
<section id="crowd" aria-labelledby="crowd-h">
<h2 id="crowd-h">Crowd submissions and aggregates</h2>
<p>Anyone who pays for an AI product can add what they pay, with no account: send a JSON body to <code>POST ${escapeHtml(path('submit'))}</code> (<code>Content-Type: application/json</code>). Required: <code>category</code>, <code>pricing_model</code> and at least one of <code>entry_usd_month</code> or <code>unit_price_usd</code> (USD). Optional: ${optionalFields()}.</p>
<p>Categories: ${SUBMISSION_CATEGORIES.map((c) => `<code>${escapeHtml(c)}</code>`).join(', ')}. Pricing models: ${PRICING_MODELS.map((m) => `<code>${escapeHtml(m)}</code>`).join(', ')}.</p>
<p>Submissions are kept apart from the index above and never change a row. What is published per category is the number of submissions, a count per pricing model, and the median entry and unit price. The disclosure rule, as served with the aggregates, says when and what that still gives away:</p>
<blockquote id="disclosure-rule"><p>${escapeHtml(DISCLOSURE_RULE)}</p></blockquote>
<p>This page is static, so it carries no live numbers. The current aggregates are free at <a href="${escapeHtml(path('aggregates'))}">${escapeHtml(path('aggregates'))}</a>, and in the <code>contributions</code> block of <a href="${escapeHtml(path('index'))}">${escapeHtml(path('index'))}</a>.</p>
</section>
<section id="right-of-reply" aria-labelledby="reply-h">
<h2 id="reply-h">Right of reply</h2>
<p class="statement">${escapeHtml(RIGHT_OF_REPLY)}</p>
<p>Contact: <a href="mailto:${escapeHtml(urls.contact)}">${escapeHtml(urls.contact)}</a> (also in <a href="${escapeHtml(path('manifest'))}">${escapeHtml(path('manifest'))}</a>).</p>
</section>
<section id="privacy" aria-labelledby="privacy-h">
<h2 id="privacy-h">Privacy</h2>
<p class="statement">${escapeHtml(PRIVACY_STATEMENT)}</p>
</section>
</main>
<footer>
<p>${escapeHtml(capitalise(DATASET_NAME))}. Rows last read on or before ${escapeHtml(lastRead(rows))}; see each row for its own read date. Machine-readable: <a href="${escapeHtml(path('index'))}">${escapeHtml(path('index'))}</a>, <a href="${escapeHtml(path('openapi'))}">${escapeHtml(path('openapi'))}</a>, <a href="${escapeHtml(path('llms'))}">${escapeHtml(path('llms'))}</a>.</p>
</footer>
</body>
</html>
`
}

function categorySection(
  category: IndexCategory,
  rows: readonly PublishedPricingRow[],
  comparable: Comparable | undefined,
): string {
  const title = CATEGORY_TITLES[category]
  const head = `<section id="${category}" aria-labelledby="${category}-h" class="category">
<h2 id="${category}-h">${escapeHtml(title)} <span class="small">(<code>${category}</code>)</span></h2>`
  if (rows.length === 0)
    return `${head}
<p>No rows in this category yet.</p>
</section>`
  return `${head}
<div class="overview">
<figure>
${categoryChart(`chart-${category}`, `${title}: published prices`, rows)}
<figcaption>${escapeHtml(title)}: each product's published price, grouped by unit; a dashed box marks a product with no published price. The table below holds the full rows and quotes.</figcaption>
</figure>
<div>
<h3>Comparables</h3>
${comparable ? comparablesList(comparable) : ''}
</div>
</div>
<h3>Rows</h3>
${rowsTable(`${title}: ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`, rows)}
</section>`
}

function optionalFields(): string {
  const required = new Set(['category', 'pricing_model', 'entry_usd_month', 'unit_price_usd'])
  return Object.keys(Submission.shape)
    .filter((f) => !required.has(f))
    .map((f) => `<code>${escapeHtml(f)}</code>`)
    .join(', ')
}

/** The newest read date of any row: a fact of the content, not of the build. */
function lastRead(rows: readonly PublishedPricingRow[]): string {
  return (
    rows
      .map((r) => r.read_on)
      .sort()
      .at(-1) ?? 'never'
  )
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}
