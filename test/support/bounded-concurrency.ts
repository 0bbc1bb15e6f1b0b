/**
 * Runs many requests with a fixed number in flight, so a volume test measures what the service
 * does with that load, not how many sockets a busy machine can open at once.
 */

/** Calls `task(i)` for i in 0..count-1, never more than `inFlight` at a time; results in index order. */
export async function runBounded<T>(
  count: number,
  inFlight: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count)
  let next = 0
  const lane = async () => {
    for (let i = next++; i < count; i = next++) results[i] = await task(i)
  }
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane))
  return results
}
