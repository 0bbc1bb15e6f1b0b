/**
 * npm run build: compile content/ into dist/. Prints the grouped report and exits 1 on bad content.
 * BASE_URL, SITE_URL and REGISTER_URL override the local addresses written into discovery files.
 */
import { build } from '../build/index.js'
import { BuildFailed } from '../build/issues.js'
import { serviceUrlsFromEnv } from './service-urls.js'

try {
  const started = performance.now()
  const { files } = await build({ contentDir: 'content', outDir: 'dist', urls: serviceUrlsFromEnv() })
  console.log(`built ${files.size} files into dist/ in ${Math.round(performance.now() - started)} ms`)
} catch (error) {
  if (!(error instanceof BuildFailed)) throw error
  console.error(error.message)
  process.exit(1)
}
