/**
 * The receipt of a settled payment: `Payment-Receipt` over HTTP, `_meta` over MCP.
 */
import { encodeText } from '../../schema/base64url.js'

export interface Receipt {
  status: 'success'
  /** The payment method: `stripe` (card) or `evm` (wallet, on either wire). */
  method: string
  timestamp: string
  /** The settlement: the PaymentIntent id at the processor, or the wallet transfer's transaction hash. */
  reference: string
  challengeId: string
  /** What was charged, as the challenge offered it. */
  amount: string
  currency: string
  /** A wallet payment's chain (EIP-155 id) and the address that paid; absent for a card. */
  chainId?: number
  payer?: string
  /** The signed receipt (schema/receipt-claims.ts), added when the answer is delivered. */
  jws?: string
}

export function receiptHeader(receipt: Receipt): string {
  return encodeText(JSON.stringify(receipt))
}
