/**
 * npm start: build and serve the whole service on http://127.0.0.1:8787, with local D1, Durable
 * Objects and the payment processor stand-in. Settings come from the environment as a deployed
 * Worker takes its vars: PORT, STATE_DIR, and any var of either wrangler.jsonc (README, Configuration).
 */
import { startService } from './service.js'

const port = Number(process.env.PORT ?? 8787)
const stateDir = process.env.STATE_DIR ?? '.wrangler/state'
let stopping = false

const service = await startService({
  port,
  stateDir,
  verbose: true,
  // A supervisor restarts a process; this one says what happened and ends, leaving nothing behind.
  onRuntimeCrash: () => {
    console.error('\nworkerd (the Workers runtime) exited unexpectedly; stopping the service.')
    void shutdown(1)
  },
})

async function shutdown(code: number) {
  if (stopping) return
  stopping = true
  await service.stop()
  process.exit(code)
}

process.on('SIGINT', () => void shutdown(0))
process.on('SIGTERM', () => void shutdown(0))
process.on('SIGHUP', () => void shutdown(0))

console.log(
  `\nServing on ${service.url}  (state in ${stateDir}; processor stand-in at ${service.processor.url}; x402 facilitator stand-in at ${service.facilitator.url})`,
)
console.log(`Try: curl ${service.url}/llms.txt   or   curl -i '${service.url}/v1/fde-lessons?topic=retry'`)
