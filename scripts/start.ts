/**
 * npm start: build and serve the whole service on http://127.0.0.1:8787 (PORT overrides),
 * with local D1, Durable Objects and the payment processor stand-in.
 */
import { startService } from './service.js'

const port = Number(process.env.PORT ?? 8787)
const service = await startService({ port, stateDir: '.wrangler/state', verbose: true })
console.log(`\nServing on ${service.url}  (processor stand-in at ${service.processor.url})`)
console.log(`Try: curl ${service.url}/llms.txt   or   curl -i '${service.url}/v1/fde-lessons?topic=retry'`)
const shutdown = async () => {
  await service.stop()
  process.exit(0)
}
process.on('SIGINT', shutdown)
process.on('SIGTERM', shutdown)
