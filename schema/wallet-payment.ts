/**
 * How a buyer with nothing but a wallet key pays (the wallet rail: MPP method "evm" and the same
 * offer on the x402 wire), and what happens to its money: one text for llms.txt, openapi.json, the
 * 402 body and README. The 402 stays authoritative: a deployment offers the rail only where it
 * names a recipient (gateway/payment/evm/config.ts).
 */
import { ANSWER_REPLAY_HOURS } from './money-back.js'

// Texts only the build renders are built in pure calls, so the Worker's bundle drops them.

/** The short form (openapi.json has little room left under its 64 KB cap; the 402 body). */
export const WALLET_PAYMENT_SUMMARY =
  'Or with only a wallet key, no account or human: the 402\'s method="evm" challenge (also x402 v2 PAYMENT-REQUIRED, and x402 v1 in the body) takes the same price in USDC by an EIP-3009 authorization the buyer signs (mppx evm, @x402/fetch, or x402-fetch 1.x). Steps: llms.txt.'

/** The wallet client's versions that install together (a bare `npm i mppx viem` fails: the newest viem asks for a newer mppx). */
export const WALLET_CLIENT_INSTALL = 'npm i mppx@0.11.0 viem@2.55.13'

/**
 * mppx's wallet client as a module that runs when copied into a file (`node pay.mjs <url>`, key in
 * WALLET_KEY). `currencies` takes mppx's asset object, not the token's address: a bare address
 * needs the chain and the token's EIP-712 name and version besides.
 */
export const WALLET_CLIENT_CODE =
  "import { evm, Mppx } from 'mppx/client'; import { assets } from 'mppx/evm'; import { privateKeyToAccount } from 'viem/accounts'; const mppx = Mppx.create({ polyfill: false, methods: [evm({ account: privateKeyToAccount(process.env.WALLET_KEY), currencies: [assets.base.USDC] })] }); const res = await mppx.fetch(process.argv[2], { headers: { 'idempotency-key': crypto.randomUUID() } }); console.log(res.status, await res.text())"

/** The same payment from the command line: mppx's CLI on the x402 wire (its default picks the card challenge and stops). */
export const WALLET_CLI_LINE =
  "MPPX_PRIVATE_KEY=<your key> npx mppx@0.11.0 --protocol x402 -H 'Idempotency-Key: <a new UUID>' '<the paid URL>'"

/** The full text: llms.txt (and gateway/payment/README.md tells the same in its own words). */
export const WALLET_PAYMENT_HOW_TO = /* @__PURE__ */ (() =>
  `A buyer holding only a private key and USDC pays without any account and without a person approving each call. Beside the card challenge the 402 carries a second WWW-Authenticate: Payment challenge with method="evm" (intent charge; alone, for a client that sends Accept-Payment: evm/charge, as mppx's wallet client does) whose request names the amount in the token's base units (the same price), the token (request.currency), its chain (request.methodDetails.chainId; Base's USDC in production) and the recipient. The credential's payload is an EIP-3009 transferWithAuthorization signed with the key: {type: "authorization", from, to (the recipient), value (the amount), validAfter, validBefore (at most the challenge's expires), nonce (keccak256 of the challenge id followed by the realm), signature}. mppx's client does all of this; install it with \`${WALLET_CLIENT_INSTALL}\`, save this as pay.mjs and run WALLET_KEY=0x… node pay.mjs '<the paid URL>': \`${WALLET_CLIENT_CODE}\`. currencies takes mppx's asset object for the chain the challenge names (assets.base.USDC for chain 8453; assets.baseSepolia.USDC for 84532, the local npm start's stand-in), never the token's bare address. From the command line: \`${WALLET_CLI_LINE}\`. The rail takes USDC by EIP-3009 on the chain the challenge names, not mppx's tempo method: a wallet client set up only for tempo finds no method it can pay. The same offer goes out as an x402 v2 PAYMENT-REQUIRED header (scheme exact), so an x402 client (@x402/fetch with @x402/evm) pays with PAYMENT-SIGNATURE and gets PAYMENT-RESPONSE; there the payment counts only for the requirements it echoes, unchanged. The body of the same 402 carries the offer in x402 v1's form too (x402Version 1, accepts with maxAmountRequired and the network by name, e.g. base), so a v1 client (x402-fetch 1.x, given a maxValue of at least the amount) pays with X-PAYMENT and gets X-PAYMENT-RESPONSE; a v1 payment echoes nothing of the offer, so it counts for the request it is sent with and expires with its authorization. One authorization pays one answer, on any wire; send an Idempotency-Key with it to get a lost answer again. The service checks the signature, amount, recipient, token, chain and window, then settles through an x402 facilitator before it answers; the receipt's method is "evm" and its reference the transfer's transaction hash.`)()

/** What a wallet payment's buyer can and cannot get back, naming where to ask (the service's contact address). */
// Only the build renders it (schema/money-back.ts says why it is written so).
export const walletRefundPolicy = (contact: string) =>
  [
    `A wallet payment cannot be refunded automatically: the service holds no key that could send USDC back. If the facilitator's answer is lost, the same credential sent again reads the authorization's state on the chain and is answered, never settled twice. A settled wallet payment whose answer is never fetched stays paid: send the same credential with the same Idempotency-Key within ${ANSWER_REPLAY_HOURS} hours to get the answer; after that the operator returns such payments by hand: write to ${contact} with the transaction hash.`,
  ].join('')

/** The refund limit in a few words, for openapi.json. */
export const WALLET_REFUND_SHORT =
  'A wallet payment is never refunded automatically (no key in the service): fetch a lost answer with the same credential and Idempotency-Key.'
