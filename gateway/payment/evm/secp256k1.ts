/**
 * The curve the wallet's signatures are on, secp256k1 (SEC 2 §2.4.1): y² = x³ + 7 over p, generator
 * G of order n, with @noble/curves' point arithmetic only, and the two multiplications a signature
 * recovery needs made cheap. Both work on public values (a signature, a digest), so variable time is
 * no leak: G's multiples are kept in 4-bit windows, computed once per isolate; any other point's
 * multiple splits its scalar in two halves of about 128 bits through the curve's endomorphism
 * (GLV: λP = (βx, y)), halving the doublings.
 */
import { Field } from '@noble/curves/abstract/modular'
import { weierstrassPoints } from '@noble/curves/abstract/weierstrass'

export const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
export const Fp = Field(0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn)
export const { ProjectivePoint: Point } = weierstrassPoints({
  a: 0n,
  b: 7n,
  Fp,
  n: N,
  h: 1n,
  Gx: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  Gy: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
})
export type CurvePoint = InstanceType<typeof Point>

// u·G then takes about 64 additions rather than 256 doublings and as many additions. The table (520
// points) costs an isolate's first wallet check a few milliseconds; 8-bit windows would halve the
// additions but cost that first check some 70 ms, more than a quiet isolate ever wins back.
Point.BASE._setWindowSize(4)

/** β, a cube root of unity mod p: (x, y) ↦ (βx, y) is the point's multiple by λ, a cube root of unity mod n. */
const BETA = 0x7ae96a2b657c07106e64479eac3434e99cf0497512f58995c1396c28719501een
/** A short basis of the lattice {(a, b): a + bλ ≡ 0 mod n}: (A1, B1) and (A2, B2). */
const A1 = 0x3086d221a7d46bcde86c90e49284eb15n
const B1 = -0xe4437ed6010e88286f547fa90abfe4c3n
const A2 = 0x114ca50f7a8e2f3f657c1108d9d44cfd8n
const B2 = A1

/** a / b rounded to the nearest integer, for a ≥ 0 and b > 0. */
const nearest = (a: bigint, b: bigint) => (a + b / 2n) / b

/** k·G, for a public k in [0, n). */
export const generatorTimes = (k: bigint): CurvePoint => Point.BASE.multiplyUnsafe(k)

/** k·P, for a public k in [0, n): k = k₁ + k₂λ with k₁, k₂ of about 128 bits, both halves in one pass. */
export function pointTimes(P: CurvePoint, k: bigint): CurvePoint {
  const c1 = nearest(B2 * k, N)
  const c2 = nearest(-B1 * k, N)
  let k1 = k - c1 * A1 - c2 * A2
  let k2 = -c1 * B1 - c2 * B2
  let P1 = P
  let P2 = new Point(Fp.mul(P.px, BETA), P.py, P.pz)
  if (k1 < 0n) {
    k1 = -k1
    P1 = P1.negate()
  }
  if (k2 < 0n) {
    k2 = -k2
    P2 = P2.negate()
  }
  const both = P1.add(P2)
  const length = Math.max(k1.toString(2).length, k2.toString(2).length)
  const bits1 = k1.toString(2).padStart(length, '0')
  const bits2 = k2.toString(2).padStart(length, '0')
  let sum = Point.ZERO
  for (let i = 0; i < length; i++) {
    sum = sum.double()
    if (bits1[i] === '1') sum = sum.add(bits2[i] === '1' ? both : P1)
    else if (bits2[i] === '1') sum = sum.add(P2)
  }
  return sum
}
