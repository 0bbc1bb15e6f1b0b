/**
 * npm start: build and serve the whole service on http://127.0.0.1:8787, with local D1, Durable
 * Objects and the payment processor stand-in. Settings come from the environment as a deployed
 * Worker takes its vars: PORT, STATE_DIR, and any var of either wrangler.jsonc (scripts/deploy/README.md, Configuration).
 * `npm run dev` (or `npm start -- --watch`) is the editor's loop: every save under content/
 * (CONTENT_DIR) rebuilds, and the running service serves the new bytes without a restart.
 */
import { BuildFailed } from '../../build/stages/issues.js'
import { type RunningService, startService } from './service.js'
import { watchContent } from './watch-content.js'

const port = Number(process.env.PORT ?? 8787)
const stateDir = process.env.STATE_DIR ?? '.wrangler/state'
const contentDir = process.env.CONTENT_DIR ?? 'content'
const watching = process.argv.includes('--watch')
let stopping = false
let crashed = false
let service: RunningService | undefined

// Watching starts before the first build, so a save made while the service starts is not lost.
const starting = startService({
  port,
  stateDir,
  contentDir,
  verbose: true,
  // A supervisor restarts a process; this one says what happened and ends, leaving nothing behind.
  onRuntimeCrash: () => {
    if (crashed) return
    crashed = true
    console.error('\nworkerd (the Workers runtime) exited unexpectedly; stopping the service.')
    // While starting, the start itself fails or ends and then stops (below).
    if (service) void shutdown(1)
  },
})

const watcher = watching
  ? watchContent(contentDir, async (changed) => {
      const started = performance.now()
      try {
        await (await starting).rebuild()
        console.log(
          `rebuilt after a change to ${changed}: serving the new bytes (${Math.round(performance.now() - started)} ms)`,
        )
      } catch (error) {
        // Bad content or a failed reload: say so and keep the last good build; the next save retries.
        const report = error instanceof BuildFailed ? error.message : String((error as Error).stack ?? error)
        console.error(`\n${report}\nnot rebuilt: still serving the last good build; save again to retry`)
      }
    })
  : undefined

try {
  service = await starting
} catch (error) {
  // A start that fails says why in one line (a build's report in full) and leaves nothing running.
  watcher?.close()
  const reason = error instanceof Error ? error.message : String(error)
  console.error(
    `\nnpm start could not start the service: ${crashed ? 'workerd exited while it started' : reason}`,
  )
  process.exit(1)
}
if (crashed) await shutdown(1)

async function shutdown(code: number) {
  if (stopping) return
  stopping = true
  watcher?.close()
  await service?.stop()
  process.exit(code)
}

process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))
process.on('SIGHUP', () => void shutdown(0))

const { url, processor, facilitator } = service
console.log(
  `\nServing on ${url}  (state in ${stateDir}; processor stand-in at ${processor.url}; x402 facilitator stand-in at ${facilitator.url})`,
)
if (watching) console.log(`Watching ${contentDir}/: a saved edit is rebuilt and served without a restart.`)
console.log(`Try: curl ${url}/llms.txt   or   curl -i '${url}/v1/fde-lessons?topic=retry'`)
