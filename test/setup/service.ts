/**
 * Global setup of the node test project: one real service (both Workers in workerd, local D1
 * and Durable Objects, the processor stand-in) on a throwaway state directory.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePort, startService } from '../../scripts/local/service.js'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
    processorUrl: string
    /** The x402 facilitator stand-in (its chain's JSON-RPC at /rpc). */
    facilitatorUrl: string
    /** The service's state directory (holds the local HMAC secret, for forging tests). */
    stateDir: string
  }
}

export default async function setup(project: TestProject) {
  const stateDir = await mkdtemp(join(tmpdir(), 'rpi-test-'))
  const service = await startService({
    // A port the OS says is free (TEST_PORT pins one), so a test run never meets a running service.
    port: process.env.TEST_PORT ? Number(process.env.TEST_PORT) : await freePort(),
    stateDir,
    // Fault tests need processor and facilitator timeouts far below the production defaults.
    // Search with no lag (the stand-in's default): a miss counts at once, unless a test sets a lag.
    vars: { PROCESSOR_TIMEOUT_MS: '2000', FACILITATOR_TIMEOUT_MS: '2000', PROCESSOR_SEARCH_LAG_MS: '0' },
    // Stalled charges wait for the test to release them, however slow the machine is.
    processor: { stallMs: 10 * 60_000 },
    facilitator: { stallMs: 10 * 60_000 },
    // Snapshots of the published aggregates every second: tests wait for the next one.
    submissionsVars: { SUBMIT_LIMIT_PER_MINUTE: '100000', AGGREGATE_SNAPSHOT_SECONDS: '1' },
    // workerd restarted under the tests: every test after it would be testing a new runtime.
    onRuntimeCrash: () => {
      throw new Error('workerd exited unexpectedly during the tests')
    },
  })
  project.provide('baseUrl', service.url)
  project.provide('processorUrl', service.processor.url)
  project.provide('facilitatorUrl', service.facilitator.url)
  project.provide('stateDir', stateDir)
  return async () => {
    await service.stop()
    await rm(stateDir, { recursive: true, force: true })
  }
}
