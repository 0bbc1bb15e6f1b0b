/**
 * The build: collect → validate → compile → bundle → discover → check → write. Reads top to bottom.
 */

import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { ServiceUrls } from '../schema/config.js'
import { canonicalize } from '../schema/jcs.js'
import { resourceList } from '../schema/mcp-resources.js'
import { addressBreaks } from './checks/check-addresses.js'
import { checkBundles } from './checks/check-bundles.js'
import { checkOpenapi } from './checks/check-openapi.js'
import { markdownBudgetIssues, skillIssues } from './checks/markdown-budgets.js'
import { rankedScenarioIssues } from './checks/ranked-scenarios.js'
import { trapScenarioIssues } from './checks/trap-scenarios.js'
import { landingPage } from './pages/landing-page.js'
import { pricingPage } from './pages/pricing-page.js'
import { todayUtc } from './pricing/pricing-freshness.js'
import { bundle, bundlesModule, SEALING_KEY_FILE, sealPaid } from './stages/bundle.js'
import { collect } from './stages/collect.js'
import { compileDatasets } from './stages/datasets.js'
import {
  agentsJson,
  DESCRIPTION,
  legacyMcpCard,
  llmsTxt,
  MCP_CARD_PATH,
  MCP_CATALOG_PATHS,
  mcpCatalog,
  mcpServerCard,
  registryListing,
} from './stages/discovery.js'
import { evaluationLine, lastEvaluation } from './stages/evaluation.js'
import { BuildFailed, type BuildIssue } from './stages/issues.js'
import { openapi } from './stages/openapi.js'
import {
  isLocalAddress,
  REGISTRY_AUTH_PATH,
  registryAuthRecord,
  registryBreaks,
  SERVER_JSON_PATH,
  serverJson,
} from './stages/registry.js'
import { sha256 } from './stages/sha256.js'
import { toolOutputSchemas } from './stages/tool-output-schemas.js'
import { type ExpectedCounts, validate } from './stages/validate.js'
import { declarationIssues, x402Declarations } from './stages/x402-discovery.js'

export interface BuildOptions {
  contentDir: string
  outDir: string
  /**
   * Where the public files go (default `<outDir>/public`). A running service gets its own, since
   * they name its address; the private bundles hold no address and are shared.
   */
  publicDir?: string
  urls: ServiceUrls
  expected?: ExpectedCounts
  /**
   * False only for content that is never sold (the benchmark's 100× copies): the Markdown budgets
   * hold for the real answers a buyer gets.
   */
  checkBudgets?: boolean
  /**
   * MCP_REGISTRY_PUBLIC_KEY: the Ed25519 public key (base64, or the whole `v=MCPv1; …` record) that
   * proves the namespace over HTTP. When set, /.well-known/mcp-registry-auth is served and the
   * discovery files name the registry entry; when not, neither.
   */
  registryPublicKey?: string
  /**
   * The day (YYYY-MM-DD) the pricing freshness is derived on: which rows are older than the re-read
   * period. Today in UTC unless set (tests set it, so a build's bytes never depend on the clock).
   */
  asOf?: string
}

export interface BuildResult {
  /** Every file written, relative to outDir, with its bytes. */
  files: Map<string, string>
  /** Whether /.well-known/mcp-registry-auth was written (MCP_REGISTRY_PUBLIC_KEY configured). */
  registryAuth: boolean
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const issues: BuildIssue[] = []
  issues.push(...addressBreaks(options.urls))
  const publicBuild = !isLocalAddress(options.urls)
  const registryKey = options.registryPublicKey?.trim()
    ? registryAuthRecord(options.registryPublicKey)
    : undefined
  if (registryKey?.problem)
    issues.push({
      file: '(configuration)',
      field: 'MCP_REGISTRY_PUBLIC_KEY',
      problem: registryKey.problem,
      allowed:
        'openssl pkey -in key.pem -pubout -outform DER | tail -c 32 | base64 (scripts/deploy/README.md, "MCP Registry")',
    })
  const registry = registryKey?.record ? registryListing(options.urls) : undefined
  const entry = serverJson(options.urls)
  for (const problem of registryBreaks(entry, options.urls, publicBuild))
    issues.push({
      file: `public${SERVER_JSON_PATH}`,
      field: 'server.json',
      problem,
      allowed: 'what the official MCP Registry accepts (schema/vendor/README.md)',
    })
  const figures = await lastEvaluation(options.contentDir)
  const evaluation = figures ? evaluationLine(figures) : undefined
  const raw = await collect(options.contentDir, issues)
  const content = validate(raw, options.expected, issues)
  if (issues.length) throw new BuildFailed(issues)

  const data = compileDatasets(content, options.asOf ?? todayUtc())
  issues.push(
    ...checkBundles(data),
    ...trapScenarioIssues(data),
    ...rankedScenarioIssues(data, content.scenarios),
  )
  if (options.checkBudgets !== false)
    issues.push(...markdownBudgetIssues(data), ...skillIssues(data, content.scenarios))
  const { files: bundles, manifest } = bundle(data)
  const api = openapi(options.urls, content.facts)
  // Compact: the document is read by machines and must stay under the 64 KB cap (check-openapi.ts).
  const apiText = `${JSON.stringify(api)}\n`
  issues.push(...(await checkOpenapi(api, apiText)))
  // The x402 crawlers' view of each paid route (PAYMENT-REQUIRED's bazaar extension, /.well-known/x402).
  const declarations = x402Declarations(content.facts)
  issues.push(...declarationIssues(declarations))
  if (issues.length) throw new BuildFailed(issues)

  const agents = `${JSON.stringify(agentsJson(data.catalogue, options.urls, registry, data.pricing.counts), null, 2)}\n`
  // The free documents as MCP resources, at the addresses of this build's static files.
  const resources = resourceList(options.urls.base_url, manifest)
  const { key, sealed } = await sealPaid(bundles, manifest)
  const schemasText = canonicalize(toolOutputSchemas())
  // Read from the asset store by the Worker (once per isolate), so the Worker's bundle stays lean.
  const schemasPath = `/data/tool-output-schemas.${sha256(schemasText).slice(0, 16)}.json`
  const x402Text = canonicalize(declarations)
  const x402Path = `/data/x402-discovery.${sha256(x402Text).slice(0, 16)}.json`
  const module = bundlesModule(schemasPath, x402Path)
  const files = new Map<string, string>([
    ...bundles.map((b) => [b.path, b.text] as const),
    ...sealed,
    ['private/manifest.json', canonicalize(manifest)],
    [`private/${SEALING_KEY_FILE}`, canonicalize({ key })],
    ['private/tool-output-schemas.json', schemasText],
    [`public${schemasPath}`, schemasText],
    [`public${x402Path}`, x402Text],
    ['private/bundles.js', module.js],
    ['private/bundles.d.ts', module.dts],
    ['public/agents.json', agents],
    ['public/.well-known/agents.json', agents],
    ['public/.well-known/mcp.json', pretty(legacyMcpCard(options.urls, resources))],
    [`public${MCP_CARD_PATH}`, pretty(mcpServerCard(options.urls, registry))],
    [`public${SERVER_JSON_PATH}`, pretty(entry)],
    ...(registryKey?.record ? [[`public${REGISTRY_AUTH_PATH}`, registryKey.record] as const] : []),
    ...MCP_CATALOG_PATHS.map((path) => [`public${path}`, pretty(mcpCatalog(options.urls))] as const),
    ['public/openapi.json', apiText],
    ['public/llms.txt', llmsTxt(data.catalogue, options.urls, resources, registry, evaluation)],
    ['public/pricing/index.html', pricingPage(data.pricing, data.changes, options.urls)],
    ['public/_headers', HEADERS],
    ['public/index.html', landingPage(DESCRIPTION, options.urls)],
  ])
  const publicDir = options.publicDir ?? join(options.outDir, 'public')
  const sharedData = join(options.outDir, 'public/data')
  // Free bundles hold no address: tests and tools read them from <outDir>/public/data, and the
  // service serves them from its own public folder too, so they are written to both.
  const targetsOf = (path: string) => {
    if (!path.startsWith('public/')) return [join(options.outDir, path)]
    const served = join(publicDir, path.slice('public/'.length))
    return path.startsWith('public/data/') ? [...new Set([served, join(options.outDir, path)])] : [served]
  }
  const targets = [...files].flatMap(([path, text]) => targetsOf(path).map((t) => [t, text] as const))
  await writeChanged(new Map(targets), [...new Set([join(options.outDir, 'private'), sharedData, publicDir])])
  return { files, registryAuth: Boolean(registryKey?.record) }
}

const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`

/**
 * Writes only the files whose bytes changed and removes stale ones, never the folders: a running
 * `wrangler dev` watching them sees no change when there is none, and never a missing file.
 */
async function writeChanged(targets: Map<string, string>, folders: string[]) {
  for (const [target, text] of [...targets].sort(([a], [b]) => a.localeCompare(b))) {
    const current = await readFile(target, 'utf8').catch(() => null)
    if (current === text) continue
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, text)
  }
  for (const folder of folders) {
    const existing = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => [])
    for (const entry of existing)
      if (entry.isFile() && !targets.has(join(entry.parentPath, entry.name)))
        await rm(join(entry.parentPath, entry.name), { force: true })
  }
}

/**
 * Headers for files served straight from the static asset store, which never runs the Worker: any
 * origin may read them; the store answers 405 to other methods, and Allow names the ones it takes.
 */
const HEADERS = `/*
  Access-Control-Allow-Origin: *
  Allow: GET, HEAD
/data/*
  Cache-Control: public, max-age=31536000, immutable
/*.json
  Cache-Control: public, max-age=300
/llms.txt
  Cache-Control: public, max-age=300
  Content-Type: text/plain; charset=utf-8
/pricing/*
  Cache-Control: public, max-age=300
/mcp/server-card
  Cache-Control: public, max-age=300
  Content-Type: application/mcp-server-card+json
/.well-known/ai-catalog.json
  Content-Type: application/ai-catalog+json
/.well-known/mcp-registry-auth
  Cache-Control: public, max-age=300
  Content-Type: text/plain; charset=utf-8
`
