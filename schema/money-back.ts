/**
 * What a buyer is promised about its money, in numbers and in one text that every document
 * renders (llms.txt, openapi.json, gateway/payment/README.md points here). The gateway's ledger and reconciler take
 * their times from here, and a test checks the Cron Trigger in gateway/wrangler.jsonc against it.
 */

import { RESENDS_PER_MINUTE } from './config.js'

/** A charged payment whose answer has not gone out can still be collected this long after its challenge expired. */
export const DELIVERY_WINDOW_HOURS = 24
/** A paid request repeated with its credential and Idempotency-Key gets its answer again for this long. */
export const ANSWER_REPLAY_HOURS = 24
/** How often the reconciler looks for charges to refund. */
export const RECONCILE_EVERY_MINUTES = 15

/** The Idempotency-Key rule, as the HTTP header and the MCP _meta key take it. */
export const IDEMPOTENCY_KEY_RULE =
  '1 to 255 printable ASCII characters (no spaces, quotes or backslashes), optionally in double quotes'

// Only the build renders it. The gateway imports this module for the numbers above, and esbuild
// keeps an unused template literal but drops an unused call marked pure: the text stays out of it.
export const MONEY_BACK_POLICY = /* @__PURE__ */ [
  `A credential is charged at most once and only for an answer it receives. Whether a payment was charged is read from the processor's consistent records (its lagging search may confirm a charge, never rule one out); until that is known the answer is 503 with Retry-After, and the same credential sent again is settled, never charged twice. To get a lost answer again, send the paid request with an Idempotency-Key (HTTP header; over MCP params._meta["idempotency-key"]; ${IDEMPOTENCY_KEY_RULE}) and repeat it with the same credential and key within ${ANSWER_REPLAY_HOURS} hours: the same bytes, Content-Digest and signed receipt come back, with no second charge. A retry that arrives while the first try is still settling waits for it and gets the same answer (or 503 with Retry-After), never a new challenge. One payment's answer is sent again at most ${RESENDS_PER_MINUTE} times a minute, one at a time; beyond that 429 too-many-resends with Retry-After, never charged. Without the key, the same credential sent again is refused with 409 payment-already-accepted naming the original PaymentIntent; the answer of a request sent without a key cannot be sent again. A charge whose answer was never delivered and can no longer be (a pending payment not collected within ${DELIVERY_WINDOW_HOURS} hours after its challenge expired, or a charge behind a refusal) is refunded in full automatically; the reconciler runs every ${RECONCILE_EVERY_MINUTES} minutes, and the credential then answers 402 payment-refunded naming the refund.`,
].join('')

/** The policy in one sentence, for openapi.json (64 KB cap): the whole text is in llms.txt. */
export const MONEY_BACK_SHORT = `A credential is charged at most once and only for an answer it receives: a lost answer comes back, uncharged, with the same credential and Idempotency-Key within ${ANSWER_REPLAY_HOURS} hours, and a card charge never delivered is refunded automatically (the whole policy: llms.txt).`
