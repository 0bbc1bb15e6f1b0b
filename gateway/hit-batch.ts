/**
 * The in-memory half of usage counting, with no runtime in it: hits grouped by endpoint, outcome
 * and client class until a batch is taken. gateway/stats.ts decides when a batch leaves.
 */
import type { Outcome } from '../schema/routes.js'

const CLIENT_CLASSES: readonly [RegExp, string][] = [
  [/mppx/i, 'mppx'],
  [/mcp/i, 'mcp-client'],
  [/curl/i, 'curl'],
  [/python|httpx|aiohttp|requests/i, 'python'],
  [/node|undici|axios/i, 'node'],
  [/mozilla|chrome|safari/i, 'browser'],
]

export function clientClass(userAgent: string | null): string {
  if (!userAgent) return 'none'
  return CLIENT_CLASSES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'other'
}

export interface Hit {
  endpoint: string
  outcome: Outcome
  client: string
  n: number
}

/** A technology asked for that no trap covers, and how often (the editors' list of what to add). */
export interface UncoveredName {
  name: string
  n: number
}

export class HitBatch {
  private readonly pending = new Map<string, Hit>()
  private readonly uncovered = new Map<string, number>()
  /** Hits counted since the last take. */
  total = 0

  add(endpoint: string, outcome: Outcome, userAgent: string | null): void {
    const client = clientClass(userAgent)
    const key = `${endpoint}\n${outcome}\n${client}`
    const entry = this.pending.get(key)
    if (entry) entry.n++
    else this.pending.set(key, { endpoint, outcome, client, n: 1 })
    this.total++
  }

  /** Counts names asked for and not covered (already checked: lower-case, at most 40 characters). */
  addUncovered(names: readonly string[]): void {
    for (const name of names) this.uncovered.set(name, (this.uncovered.get(name) ?? 0) + 1)
  }

  /** Every unsent hit, emptying the batch. */
  take(): Hit[] {
    const hits = [...this.pending.values()]
    this.pending.clear()
    this.total = 0
    return hits
  }

  /** Every unsent uncovered name, emptying that half of the batch. */
  takeUncovered(): UncoveredName[] {
    const names = [...this.uncovered].map(([name, n]) => ({ name, n }))
    this.uncovered.clear()
    return names
  }
}
