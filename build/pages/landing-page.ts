/**
 * The page at `/`: a person (or an agent) who opens the bare address finds where to go next,
 * every link derived from the route table, so it cannot name a path the service lacks.
 */
import type { ServiceUrls } from '../../schema/config.js'
import { PRICE, ROUTES } from '../../schema/routes.js'
import { escapeHtml } from './html.js'

export function landingPage(description: string, urls: ServiceUrls): string {
  const item = (href: string, text: string, note: string) =>
    `<li><a href="${escapeHtml(href)}">${escapeHtml(text)}</a>: ${escapeHtml(note)}</li>`
  const free = ROUTES.filter((r) => r.access === 'free' && r.method === 'GET' && r.params.length === 0)
  const paid = ROUTES.filter((r) => r.access === 'paid')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rules and Pricing-Index Service</title>
<link rel="alternate" type="text/plain" href="/llms.txt">
</head>
<body>
<h1>Rules and Pricing-Index Service</h1>
<p>${escapeHtml(description)}</p>
<p>Start with <a href="/llms.txt">llms.txt</a> (for agents), <a href="/openapi.json">openapi.json</a> (the interface) or the <a href="${escapeHtml(urls.site_url)}">pricing index page</a>.</p>
<h2>Free</h2>
<ul>
${free.map((r) => item(r.path, `${r.method} ${r.path}`, r.summary)).join('\n')}
</ul>
<h2>Paid, ${escapeHtml(PRICE.display)} a call (HTTP 402, Payment scheme)</h2>
<ul>
${paid.map((r) => item(r.path, `${r.method} ${r.path}`, r.summary)).join('\n')}
</ul>
</body>
</html>
`
}
