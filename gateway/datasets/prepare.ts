/**
 * Reading the bundles and preparing a data route's answer from them (gateway/datasets/answers.ts):
 * a read that fails is a 503 before any challenge.
 */
import type { BundleData } from '../../schema/datasets.js'
import type { Retryable } from '../../schema/retryable.js'
import { type Problem, problem } from '../http/problem.js'
import { DATA_RETRY_AFTER_S, PREPARE } from './answers.js'
import { type AssetReader, BundleUnavailable, bundleData } from './bundle-store.js'
import type { Filters, Prepared } from './query.js'

export { PREPARE }

/** The bundles, or a 503 problem when they cannot be read (logged; nothing is charged). */
export async function loadBundles(assets: AssetReader): Promise<BundleData | Problem> {
  try {
    return await bundleData(assets)
  } catch (error) {
    if (!(error instanceof BundleUnavailable)) throw error
    console.error('bundles unavailable', error.message)
    return problem(
      503,
      'data-unavailable',
      'Data Unavailable',
      'the dataset cannot be read right now; nothing was charged, try again shortly',
      { retryable: 'same-credential' satisfies Retryable },
    )
  }
}

/**
 * Prepares a data route's answer: the bundles first (a read that fails is a 503 before any
 * challenge), then the route's filters. Undefined: no such data route.
 */
export async function prepare(
  assets: AssetReader,
  route: string,
  filters: Filters,
  now: number,
): Promise<Prepared | undefined> {
  const prepareRoute = PREPARE[route]
  if (!prepareRoute) return undefined
  const data = await loadBundles(assets)
  return 'status' in data ? { ok: false, problem: data } : prepareRoute(data, filters, now)
}

/** Retry-After for a problem a client should simply repeat (the data could not be read). */
export const retryAfter = (p: Problem): Record<string, string> =>
  p.status === 503 ? { 'retry-after': String(DATA_RETRY_AFTER_S) } : {}
