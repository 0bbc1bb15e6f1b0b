/**
 * A paid tool call: without a credential, an isError result carrying the challenge under
 * _meta["org.paymentauth/payment-required"]; with one, settle it and return the payload with
 * _meta["org.paymentauth/receipt"]; a refused credential is an isError result, never a JSON-RPC error.
 */
import type { CallToolResult } from '@modelcontextprotocol/server'
import { canonicalize } from '../../schema/jcs.js'
import type { McpTool } from '../../schema/mcp-tools.js'
import { type Outcome, PRICE } from '../../schema/routes.js'
import type { Prepared } from '../datasets/query.js'
import type { Env } from '../env.js'
import { type Binding, normaliseQuery } from '../payment/binding.js'
import { asIssued, issueChallenge } from '../payment/challenge.js'
import { credentialFromJson, MalformedCredential } from '../payment/credential.js'
import { evmOffer } from '../payment/evm/offer.js'
import { evmChargeRequest } from '../payment/evm/request.js'
import { ledgerOf, settleCredential } from '../payment/http.js'
import {
  IDEMPOTENCY_KEY_META,
  IDEMPOTENCY_KEY_RULE,
  parseIdempotencyKey,
} from '../payment/idempotency-key.js'
import { cardOffer, type PaymentConfig } from '../payment/methods.js'
import type { Settlement } from '../payment/pay.js'
import { problemBody, type Refusal, refusal } from '../payment/problems.js'
import { signedReceipt } from '../payment/signed-receipt.js'
import { chargeRequest } from '../payment/stripe/charge.js'

export const META_PAYMENT_REQUIRED = 'org.paymentauth/payment-required'
export const META_CREDENTIAL = 'org.paymentauth/credential'
export const META_RECEIPT = 'org.paymentauth/receipt'
/** A paid tool's price in tools/list, before any call: what the challenge will ask for. */
export const META_PRICE = 'org.paymentauth/price'
/** A payment problem that comes with no new challenge (a pending payment, a client over its limit). */
export const META_PROBLEM = 'org.paymentauth/problem'

type PaidOutcome = Extract<Outcome, 'challenged' | 'refused' | 'paid'>

/**
 * A refused credential as a tool result. A 402 carries a fresh challenge; a pending payment (503),
 * a client over its failure limit (429) and a settled credential (409) carry none, since the same
 * credential is to be sent again (503, 429) or must never pay again (409).
 */
async function refusedResult(
  config: PaymentConfig,
  binding: Binding,
  tool: McpTool,
  r: Refusal,
): Promise<CallToolResult> {
  const text =
    r.status === 402
      ? r.challenge
        ? `Payment waiting (${r.problem}): ${r.detail}. ${tool.name} costs ${PRICE.display}, and this credential's payment may still complete: do not pay again.`
        : `Payment refused (${r.problem}): ${r.detail}. ${tool.name} costs ${PRICE.display}: pay the fresh challenge in _meta["${META_PAYMENT_REQUIRED}"] and call again with _meta["${META_CREDENTIAL}"].`
      : r.retryAfterS === undefined
        ? `Payment not repeated (${r.problem}): ${r.detail}.`
        : `${r.problem === 'too-many-resends' ? 'Not sent again' : 'Payment not settled'} (${r.problem}): ${r.detail}. Retry after ${r.retryAfterS} s.`
  const meta =
    r.status === 402
      ? { [META_PAYMENT_REQUIRED]: await paymentRequired(config, binding, tool, r) }
      : {
          [META_PROBLEM]: {
            ...problemBody(r),
            ...(r.retryAfterS === undefined ? {} : { retryAfterS: r.retryAfterS }),
          },
        }
  return { isError: true, content: [{ type: 'text', text }], _meta: meta }
}

async function paymentRequired(config: PaymentConfig, binding: Binding, tool: McpTool, r: Refusal) {
  const challenge = r.challenge
    ? asIssued(r.challenge, tool.route.summary)
    : await issueChallenge(config, cardOffer(config), binding, tool.route.summary)
  // A fresh offer carries the same price in USDC beside the card, as over HTTP.
  const wallet =
    !r.challenge && config.evm
      ? [
          {
            ...(await issueChallenge(config, evmOffer(config.evm), binding, tool.route.summary)),
            request: evmChargeRequest(config.evm),
          },
        ]
      : []
  return {
    httpStatus: 402,
    challenges: [{ ...challenge, request: chargeRequest(config) }, ...wallet],
    problem: problemBody(r, challenge.id, wallet.length > 0),
  }
}

/**
 * The bytes a paid tool result's receipt digest covers: everything the buyer is given, the text
 * and the structured content, as JCS (RFC 8785) of `{content, structuredContent}`.
 */
export function deliveredBytes(result: Pick<CallToolResult, 'content' | 'structuredContent'>): string {
  return canonicalize({ content: result.content, structuredContent: result.structuredContent })
}

/** A malformed `_meta["idempotency-key"]`: the caller's error, before anything is claimed or charged. */
export class InvalidIdempotencyKey extends Error {
  constructor() {
    super(`_meta["${IDEMPOTENCY_KEY_META}"] must be ${IDEMPOTENCY_KEY_RULE}`)
  }
}

export async function callPaidTool(
  env: Env,
  /** Where work after the answer goes (the answer kept for a re-send). */
  ctx: Pick<ExecutionContext, 'waitUntil'>,
  config: PaymentConfig,
  tool: McpTool,
  prepared: Extract<Prepared, { ok: true }>,
  meta: Record<string, unknown> | undefined,
  client: string,
): Promise<{ outcome: PaidOutcome; result: CallToolResult }> {
  const binding: Binding = { via: 'mcp', target: tool.name, query: normaliseQuery(prepared.filters) }
  const raw = meta?.[META_CREDENTIAL]
  if (raw === undefined) {
    const required = await paymentRequired(
      config,
      binding,
      tool,
      refusal('payment-required', `${tool.name} costs ${PRICE.display} per call`),
    )
    return {
      outcome: 'challenged',
      result: {
        isError: true,
        content: [
          {
            type: 'text',
            text: `Payment required: ${tool.name} costs ${PRICE.display}. Pay the challenge in _meta["${META_PAYMENT_REQUIRED}"] and call again with _meta["${META_CREDENTIAL}"].`,
          },
        ],
        _meta: { [META_PAYMENT_REQUIRED]: required },
      },
    }
  }
  const idempotencyKey = parseIdempotencyKey(meta?.[IDEMPOTENCY_KEY_META])
  if (idempotencyKey === null) throw new InvalidIdempotencyKey()
  let settlement: Settlement
  try {
    settlement = await settleCredential(env, config, credentialFromJson(raw), binding, client, idempotencyKey)
  } catch (error) {
    if (!(error instanceof MalformedCredential)) throw error
    settlement = { ok: false, refusal: refusal('malformed-credential', error.message) }
  }
  // Every refusal stays in band: SDKs turn JSON-RPC errors into tool errors that drop error.data.
  if (!settlement.ok)
    return { outcome: 'refused', result: await refusedResult(config, binding, tool, settlement.refusal) }
  // A repeat under the Idempotency-Key of an answered call: the same result and receipt.
  const kept = settlement.repeat?.answer
  if (kept) return { outcome: 'paid', result: JSON.parse(kept.body) as CallToolResult }
  const payload = prepared.payload() as Record<string, unknown>
  // Asked for Markdown (`format`): the text block is the Markdown to save; the structured content
  // stays the JSON the outputSchema promises. The receipt covers both.
  const delivered = {
    content: [{ type: 'text' as const, text: prepared.markdown?.() ?? JSON.stringify(payload) }],
    structuredContent: payload,
  }
  const query = binding.query
  const { receipt } = await signedReceipt(
    config.receipts,
    settlement.receipt,
    `mcp:${tool.name}${query ? `?${query}` : ''}`,
    deliveredBytes(delivered),
  )
  const result: CallToolResult = { ...delivered, _meta: { [META_RECEIPT]: receipt } }
  // Kept after the answer is on its way, as over HTTP (gateway/index.ts): copies wait for it.
  if (idempotencyKey !== undefined)
    ctx.waitUntil(
      ledgerOf(env).keepAnswer(settlement.receipt.challengeId, idempotencyKey, {
        body: JSON.stringify(result),
        headers: {},
      }),
    )
  return { outcome: 'paid', result }
}
