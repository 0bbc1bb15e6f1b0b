/**
 * A paid answer's receipt, signed once: the settlement's receipt plus `jws` over the claims of
 * schema/receipt-claims.ts, and the digest of the bytes the buyer receives. The key set
 * published at /.well-known/jwks.json (current key and the retired ones still kept) verifies it.
 */
import { RETIRED_KEY_DAYS } from '../../schema/receipt-claims.js'
import type { Receipt } from './receipt.js'
import {
  contentDigest,
  importSigningKey,
  type PublicJwk,
  publicJwk,
  type SigningKey,
  signReceipt,
} from './receipt-signature.js'

/** The receipt signer's keys: the current private JWK and the retired public ones still published. */
export interface ReceiptKeys {
  signing: { kty: 'OKP'; crv: 'Ed25519'; d: string; x: string; kid: string }
  retired: { kid: string; x: string; retired_on: string }[]
  /** The `iss` of every receipt: the service's base URL. */
  issuer: string
}

const imported = new Map<string, Promise<SigningKey>>()

function signingKey(keys: ReceiptKeys): Promise<SigningKey> {
  const id = `${keys.signing.kid}:${keys.signing.x}`
  let key = imported.get(id)
  if (!key) {
    key = importSigningKey(keys.signing)
    imported.set(id, key)
  }
  return key
}

export async function signedReceipt(
  keys: ReceiptKeys,
  receipt: Receipt,
  resource: string,
  body: string,
): Promise<{ receipt: Receipt; digest: string }> {
  const digest = await contentDigest(body)
  // Issued when the payment settled, not when this copy was signed: Ed25519 is deterministic, so the
  // same answer to the same payment always carries the same receipt (a re-sent answer is identical).
  const jws = await signReceipt(await signingKey(keys), {
    iss: keys.issuer,
    iat: Math.floor(Date.parse(receipt.timestamp) / 1000),
    challengeId: receipt.challengeId,
    reference: receipt.reference,
    method: receipt.method,
    amount: receipt.amount,
    currency: receipt.currency,
    resource,
    digest,
  })
  return { receipt: { ...receipt, jws }, digest }
}

/** The published key set: the current key and every retired key still inside its period. */
export function keySet(keys: ReceiptKeys, now = Date.now()): { keys: PublicJwk[] } {
  const keep = RETIRED_KEY_DAYS * 24 * 60 * 60 * 1000
  return {
    keys: [
      publicJwk(keys.signing),
      ...keys.retired.filter((k) => Date.parse(k.retired_on) + keep > now).map((k) => publicJwk(k)),
    ],
  }
}
