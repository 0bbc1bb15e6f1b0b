/**
 * npm run build: compile content/ into dist/. Prints the grouped report and exits 1 on bad content.
 * BASE_URL, SITE_URL and REGISTER_URL override the local addresses written into discovery files;
 * MCP_REGISTRY_PUBLIC_KEY, when set, serves the MCP Registry namespace proof (scripts/deploy/README.md, "MCP Registry").
 */
import { build } from '../../build/index.js'
import { BuildFailed } from '../../build/stages/issues.js'
import { REGISTRY_AUTH_PATH, registryName } from '../../build/stages/registry.js'
import { serviceUrlsFromEnv } from './service-urls.js'

try {
  const started = performance.now()
  const urls = serviceUrlsFromEnv()
  const { files, registryAuth } = await build({
    contentDir: 'content',
    outDir: 'dist',
    urls,
    registryPublicKey: process.env.MCP_REGISTRY_PUBLIC_KEY,
  })
  console.log(`built ${files.size} files into dist/ in ${Math.round(performance.now() - started)} ms`)
  console.log(
    registryAuth
      ? `MCP Registry: ${registryName(urls)}; namespace proof served at ${REGISTRY_AUTH_PATH} (MCP_REGISTRY_PUBLIC_KEY set)`
      : `MCP Registry: ${registryName(urls)}; no ${REGISTRY_AUTH_PATH} (MCP_REGISTRY_PUBLIC_KEY not set), so the entry cannot be published from this build`,
  )
} catch (error) {
  if (!(error instanceof BuildFailed)) throw error
  console.error(error.message)
  process.exit(1)
}
