/**
 * npm test: lint, build the real content, type-check every project, dry-run both Worker bundles,
 * then run every test (Node and workerd) and print the closing line `N passed, N failed`.
 */
import { mkdir, readFile } from 'node:fs/promises'
import { $ } from 'zx'
import { quietEnv } from '../local/service.js'

$.verbose = true
$.env = quietEnv

interface VitestReport {
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numTotalTests: number
  success: boolean
}

const workers = ['gateway/wrangler.jsonc', 'gateway/submissions/wrangler.jsonc']

async function checks() {
  await $`npx biome ci .`
  await $`tsx scripts/local/build.ts`
  for (const config of workers)
    await $`npx wrangler types -c ${config} ${config.replace('wrangler.jsonc', 'worker-configuration.d.ts')} --include-env=false`.quiet()
  await $`npx tsc -p tsconfig.json`
  await $`npx tsc -p gateway/tsconfig.json`
  await $`npx tsc -p gateway/submissions/tsconfig.json`
  for (const config of workers)
    await $`npx wrangler deploy --dry-run -c ${config} --outdir ${`test-results/dry-run/${config.split('/').at(-2)}`}`.quiet()
  await $`bash scripts/ci/install-chromium.sh`
}

await mkdir('test-results', { recursive: true })
try {
  await checks()
} catch {
  console.log('\nchecks failed (lint, build, types or bundling): no test ran')
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const run =
  await $`npx vitest run --reporter=default --reporter=json --outputFile=test-results/vitest.json ${process.argv.slice(2)}`.nothrow()
let report: VitestReport | undefined
try {
  report = JSON.parse(await readFile('test-results/vitest.json', 'utf8')) as VitestReport
} catch {
  // vitest died before writing its report
}
const passed = report?.numPassedTests ?? 0
const failed =
  (report?.numFailedTests ?? 0) + (run.exitCode !== 0 && (report?.numFailedTests ?? 0) === 0 ? 1 : 0)
console.log(
  `\n${passed} passed, ${failed} failed${report?.numPendingTests ? `, ${report.numPendingTests} skipped` : ''}`,
)
process.exit(run.exitCode === 0 && failed === 0 ? 0 : 1)
