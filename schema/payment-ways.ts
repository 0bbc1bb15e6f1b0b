/**
 * The ways to pay a paid call, each with what a client needs to choose it: one list that every
 * discovery document renders (server.json, the MCP cards, agents.json, llms.txt, openapi.json), so
 * a client that can pay only one way learns from any of them whether it can pay here. The 402 stays
 * authoritative: the wallet ways are offered where a deployment names a recipient.
 */
import { PRICE } from './routes.js'

export interface PaymentWay {
  /** The way's name in the documents: an MPP method, or `x402`. */
  id: 'stripe' | 'evm' | 'x402'
  /** The protocol that carries it: the HTTP "Payment" scheme (MPP) or x402. */
  protocol: 'mpp' | 'x402'
  /** Where it is paid: HTTP 402 and, for the Payment scheme, MCP tool results in band. */
  over: readonly ('http' | 'mcp')[]
  settles_in: string
  /** What the buyer must hold. */
  needs: string
  /** Where the offer is read. */
  offer: string
  /** How the payment is sent back. */
  pay: string
  /** Clients known to pay it unmodified. */
  clients: string
}

export const PAYMENT_WAYS: readonly PaymentWay[] = [
  {
    id: 'stripe',
    protocol: 'mpp',
    over: ['http', 'mcp'],
    settles_in: `${PRICE.currency.toUpperCase()} by card`,
    needs: "a Stripe shared payment token (spt_…) granted to the challenge's request.methodDetails.networkId",
    offer: 'WWW-Authenticate: Payment method="stripe" intent="charge"',
    pay: 'Authorization: Payment <credential> with payload.spt',
    clients: 'mppx stripe({ createToken })',
  },
  {
    id: 'evm',
    protocol: 'mpp',
    over: ['http', 'mcp'],
    settles_in: 'USDC',
    needs:
      "a wallet key holding USDC on the chain in the challenge's request.methodDetails.chainId (Base, 8453)",
    offer: 'WWW-Authenticate: Payment method="evm" intent="charge"',
    pay: 'Authorization: Payment <credential> with an EIP-3009 authorization',
    clients: 'mppx evm({ account, currencies: [assets.base.USDC] })',
  },
  {
    id: 'x402',
    protocol: 'x402',
    over: ['http'],
    settles_in: 'USDC',
    needs: 'the same wallet key and USDC; an x402 client (scheme exact)',
    offer: 'PAYMENT-REQUIRED header (x402 v2) and the 402 body\'s x402Version 1 "accepts"',
    pay: 'PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1); the answer carries PAYMENT-RESPONSE or X-PAYMENT-RESPONSE',
    clients: '@x402/fetch with @x402/evm (v2), x402-fetch (v1)',
  },
]

/** The MPP methods among the ways (those a Payment challenge names). */
export const MPP_METHODS = PAYMENT_WAYS.filter((w) => w.protocol === 'mpp').map((w) => w.id)

/** One line per way, for llms.txt and the MCP instructions. */
export const paymentWayLine = (w: PaymentWay) =>
  `${w.id} (${w.protocol === 'mpp' ? 'Payment scheme' : 'x402'}, over ${w.over.join(' and ')}, settles in ${w.settles_in}): needs ${w.needs}; offer in ${w.offer}; pay with ${w.pay}; clients: ${w.clients}.`
