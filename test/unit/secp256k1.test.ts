/**
 * The wallet check's two fast multiplications (gateway/payment/evm/secp256k1.ts) give the same
 * points as noble's plain ones: G's multiples from its windows, and any point's multiple through the
 * endomorphism split, for scalars at the edges and spread over [0, n).
 */
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generatorTimes, N, Point, pointTimes } from '../../gateway/payment/evm/secp256k1.js'

/** Scalars in [0, n) from a fixed seed: the same every run. */
const scalars = Array.from(
  { length: 24 },
  (_, i) => BigInt(`0x${createHash('sha256').update(`scalar ${i}`).digest('hex')}`) % N,
)
const edges = [0n, 1n, 2n, N - 1n, N - 2n, N / 2n, N / 2n + 1n, 1n << 128n, (1n << 128n) - 1n]

describe('secp256k1 multiplications for signature recovery', () => {
  it('behavior: k·G from the windows is noble’s k·G', () => {
    for (const k of [...edges.filter((k) => k > 0n), ...scalars])
      expect(generatorTimes(k).equals(Point.BASE.multiply(k)), String(k)).toBe(true)
    expect(generatorTimes(0n).equals(Point.ZERO)).toBe(true)
  })

  it('behavior: k·P through the endomorphism split is noble’s k·P, for any point and scalar', () => {
    const points = scalars.slice(0, 6).map((k) => Point.BASE.multiply(k || 1n))
    for (const P of points)
      for (const k of [...edges, ...scalars])
        expect(pointTimes(P, k).equals(P.multiplyUnsafe(k)), String(k)).toBe(true)
  })
})
