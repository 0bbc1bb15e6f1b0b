/**
 * A paid tool call: without a credential, an isError result carrying the challenge under
 * _meta["org.paymentauth/payment-required"]; with one, settle it and return the payload with
 * _meta["org.paymentauth/receipt"]; a refused credential is JSON-RPC -32043 with a fresh challenge.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import type { McpTool } from '../../schema/mcp-tools.js'
import type { Outcome } from '../../schema/routes.js'
import type { Prepared } from '../datasets/query.js'
import type { Env } from '../env.js'
import { type Binding, normaliseQuery } from '../payment/binding.js'
import { chargeRequest, issueChallenge, type PaymentConfig, verifyAndSettle } from '../payment/charge.js'
import { credentialFromJson, MalformedCredential } from '../payment/credential.js'
import { ledgerOf } from '../payment/http.js'
import { problemBody, type Refusal, refusal } from '../payment/problems.js'

export const META_PAYMENT_REQUIRED = 'org.paymentauth/payment-required'
export const META_CREDENTIAL = 'org.paymentauth/credential'
export const META_RECEIPT = 'org.paymentauth/receipt'
/** JSON-RPC codes of the MCP payment transport draft. */
export const VERIFICATION_FAILED = -32043

type PaidOutcome = Extract<Outcome, 'challenged' | 'refused' | 'paid'>

async function paymentRequired(config: PaymentConfig, binding: Binding, tool: McpTool, r: Refusal) {
  const challenge = await issueChallenge(config, binding, tool.route.summary)
  return {
    httpStatus: 402,
    challenges: [{ ...challenge, request: chargeRequest(config) }],
    problem: problemBody(r, challenge.id),
  }
}

export async function callPaidTool(
  env: Env,
  config: PaymentConfig,
  tool: McpTool,
  prepared: Extract<Prepared, { ok: true }>,
  meta: Record<string, unknown> | undefined,
): Promise<{ outcome: PaidOutcome; result: Record<string, unknown> }> {
  const binding: Binding = { via: 'mcp', target: tool.name, query: normaliseQuery(prepared.filters) }
  const raw = meta?.[META_CREDENTIAL]
  if (raw === undefined) {
    const required = await paymentRequired(
      config,
      binding,
      tool,
      refusal('payment-required', `${tool.name} costs 0.50 USD per call`),
    )
    return {
      outcome: 'challenged',
      result: {
        isError: true,
        content: [
          {
            type: 'text',
            text: `Payment required: ${tool.name} costs 0.50 USD. Pay the challenge in _meta["${META_PAYMENT_REQUIRED}"] and call again with _meta["${META_CREDENTIAL}"].`,
          },
        ],
        _meta: { [META_PAYMENT_REQUIRED]: required },
      },
    }
  }
  let credential: ReturnType<typeof credentialFromJson>
  try {
    credential = credentialFromJson(raw)
  } catch (error) {
    if (!(error instanceof MalformedCredential)) throw error
    throw new McpError(ErrorCode.InvalidParams, `malformed payment credential: ${error.message}`, {
      ...(await paymentRequired(config, binding, tool, refusal('malformed-credential', error.message))),
    })
  }
  const settlement = await verifyAndSettle(config, ledgerOf(env), credential, binding)
  if (!settlement.ok) {
    const { refusal: r } = settlement
    if (r.status === 503)
      throw new McpError(ErrorCode.InternalError, `payment processor unavailable: ${r.detail}`)
    throw new McpError(VERIFICATION_FAILED, `payment verification failed: ${r.detail}`, {
      ...(await paymentRequired(config, binding, tool, r)),
      failure: { reason: r.problem, detail: r.detail },
    })
  }
  const payload = prepared.payload() as Record<string, unknown>
  return {
    outcome: 'paid',
    result: {
      content: [{ type: 'text', text: JSON.stringify(payload) }],
      structuredContent: payload,
      _meta: { [META_RECEIPT]: settlement.receipt },
    },
  }
}
