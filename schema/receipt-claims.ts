/**
 * The claims of a signed receipt: the payload of the compact JWS (EdDSA, Ed25519) carried as
 * `jws` in every paid answer's receipt, over HTTP (`Payment-Receipt`) and MCP
 * (`_meta["org.paymentauth/receipt"]`). Verifiable offline against /.well-known/jwks.json.
 */

/** Each claim and what it binds; the one list the signer, the docs and the tests use. */
export const RECEIPT_CLAIMS = {
  iss: "the service's base URL",
  iat: 'when the answer was signed (seconds since the epoch)',
  challengeId: 'the challenge the credential paid',
  reference: 'the PaymentIntent at the processor',
  method: 'the payment method (stripe)',
  amount: 'the amount charged, in the smallest unit of the currency (50)',
  currency: 'the currency (usd)',
  resource:
    'what was bought: over HTTP "GET <path>?<normalised query>", over MCP "mcp:<tool>?<normalised arguments>"',
  digest:
    'the exact bytes delivered, as RFC 9530 sha-256=:<base64>: (HTTP: the body, also sent as Content-Digest; MCP: the text content)',
} as const

export type ReceiptClaims = {
  iss: string
  iat: number
  challengeId: string
  reference: string
  method: string
  amount: string
  currency: string
  resource: string
  digest: string
}

/** Where the public keys are published. */
export const JWKS_PATH = '/.well-known/jwks.json'

/** How long a retired signing key stays in the key set, so receipts signed with it still verify. */
export const RETIRED_KEY_DAYS = 400

/** What a receipt proves: one text, every document. */
// Only the build renders it (schema/money-back.ts says why it is written so).
export const RECEIPT_POLICY = /* @__PURE__ */ [
  `Every paid answer carries a receipt with a signed JWS (EdDSA; keys at ${JWKS_PATH}, retired keys kept ${RETIRED_KEY_DAYS} days) binding the payment (challengeId, PaymentIntent reference, amount, currency), the resource bought and the SHA-256 digest of the exact bytes delivered (over MCP, of the JCS form of the result's content and structuredContent).`,
].join('')
