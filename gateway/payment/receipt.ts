/**
 * The receipt of a settled payment: `Payment-Receipt` over HTTP, `_meta` over MCP.
 */
import { encodeText } from './base64url.js'

export interface Receipt {
  status: 'success'
  method: 'stripe'
  timestamp: string
  /** The PaymentIntent id at the processor. */
  reference: string
  challengeId: string
}

export function receiptHeader(receipt: Receipt): string {
  return encodeText(JSON.stringify(receipt))
}
