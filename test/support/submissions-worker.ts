/**
 * The submissions Worker alone, for the tests of test/submissions/ that need a database of their own
 * (workerd through Miniflare, a throwaway D1 and state folder): submit as a chosen client network,
 * read the published aggregates, reach its database, stop.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Miniflare } from 'miniflare'
import type { Contributions } from '../../schema/submission.js'
import { startLocalWorkers } from '../../scripts/local/local-workers.js'
import { freePort, SUBMISSIONS_CONFIG } from '../../scripts/local/service.js'

export interface SubmissionsWorker {
  base: URL
  /** POSTs one submission as `client` (CF-Connecting-IP picks its network locally). */
  submit(body: unknown, client: string, headers?: Record<string, string>): Promise<Response>
  /** GET /v1/pricing/aggregates, which must answer 200. */
  aggregates(): Promise<Contributions>
  /** The Worker's own D1 database, for calling its modules with a clock the test chooses. */
  database(): ReturnType<Miniflare['getD1Database']>
  stop(): Promise<void>
}

export async function startSubmissionsWorker(vars: Record<string, string>): Promise<SubmissionsWorker> {
  const state = mkdtempSync(join(tmpdir(), 'subs-test-'))
  const worker = await startLocalWorkers({
    port: await freePort(),
    stateDir: state,
    workers: [{ config: SUBMISSIONS_CONFIG, vars }],
  })
  const base = new URL(worker.url)
  return {
    base,
    submit: (body, client, headers = {}) =>
      fetch(new URL('/v1/pricing/submit', base), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': client, ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    async aggregates() {
      const r = await fetch(new URL('/v1/pricing/aggregates', base))
      if (r.status !== 200) throw new Error(`/v1/pricing/aggregates answered ${r.status}`)
      return (await r.json()) as Contributions
    },
    database: () => worker.miniflare.getD1Database('DB'),
    async stop() {
      await worker.dispose()
      rmSync(state, { recursive: true, force: true })
    },
  }
}
