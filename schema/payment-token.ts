/**
 * How a buyer gets the payment token a credential carries: one text that llms.txt, openapi.json and
 * README render (README quotes it; test/build/readme-quotes.test.ts keeps the words identical), so an
 * agent that reads only the discovery documents can still pay a real seller, not only the stand-in.
 * Sources, read 2026-11-24: Stripe, "Pay machine-payment merchants" (Link CLI) and "Shared payment
 * tokens" (who may use them, how an agent issues one to a seller's Stripe profile).
 */

/** Stripe's guide for an agent paying an HTTP 402 Payment challenge with a shared payment token. */
export const PAYMENT_TOKEN_GUIDE_URL = 'https://docs.stripe.com/agentic-commerce/link-cli/machine-payments'
/** Stripe's page on shared payment tokens: the agent's side (issuing one to a seller). */
export const SHARED_PAYMENT_TOKENS_URL =
  'https://docs.stripe.com/agentic-commerce/concepts/shared-payment-tokens?agent-seller=agent'

/** The short form, for places with little room (openapi.json must stay under 64 KB; a 402 body). */
export const PAYMENT_TOKEN_SUMMARY = `payload.spt: a Stripe shared payment token granted to the profile in the challenge's request.methodDetails.networkId, for its amount (Stripe's Link CLI: ${PAYMENT_TOKEN_GUIDE_URL}; or an agent platform's own Stripe API). Steps: llms.txt.`

/** The full text: llms.txt and README. */
// Only the build renders it (schema/money-back.ts says why it is written so).
export const PAYMENT_TOKEN_HOW_TO = /* @__PURE__ */ [
  `The credential's payload.spt is a Stripe shared payment token (spt_…) granted to this seller for the challenge's amount; the challenge's request.methodDetails.networkId names the seller's Stripe profile to grant it to. With a US Link account, Stripe's Link CLI (npm package @stripe/link-cli) gets one: \`link-cli mpp decode --challenge '<the WWW-Authenticate value>'\` reads the network id, \`link-cli spend-request create --credential-type shared_payment_token --network-id <networkId> --amount <the challenge's amount> --context '<what it buys>'\` asks for the token, and the person who owns the wallet approves it at the approval_url it returns (${PAYMENT_TOKEN_GUIDE_URL}). An agent platform with its own Stripe account issues the token itself through Stripe's shared payment token API, to the profile named by networkId (${SHARED_PAYMENT_TOKENS_URL}). Stripe offers shared payment tokens in the US, Canada and some European countries. In mppx, stripe({ createToken }) calls createToken with the challenge's amount, currency and networkId, and pays with the token it returns.`,
].join('')
