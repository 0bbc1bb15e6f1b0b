/**
 * One payment per request (draft-httpauth-payment-01 App. B.4: a client sends one Payment
 * credential, and a server receiving several SHOULD answer 400). This service's challenges carry no
 * `header` parameter, so a Payment credential is read from Authorization only (§5.2) and one in
 * Payment-Authorization never pays; beside another payment it still makes two, and is refused so.
 */
import { badRequest, type Problem } from '../http/problem.js'

export const PAYMENT_AUTHORIZATION_HEADER = 'payment-authorization'

/** The payments a request carries, field by field. */
export interface SentPayments {
  /** Payment credentials in Authorization (two sent at once arrive joined by a comma). */
  authorization: number
  /** Payment credentials in Payment-Authorization. */
  paymentAuthorization: number
  /** An x402 v2 payment (PAYMENT-SIGNATURE). */
  paymentSignature: boolean
  /** An x402 v1 payment (X-PAYMENT). */
  xPayment: boolean
}

/** How many members of a field value are Payment credentials (`Payment <token>`); a token holds no comma. */
export function paymentCredentialCount(value: string | null): number {
  if (!value) return 0
  return value.split(',').filter((member) => /^[ \t]*payment[ \t]+[^ \t]/i.test(member)).length
}

/**
 * The 400 for a request with more than one payment, naming the field to leave out (nothing was
 * claimed or charged), or undefined for one payment or none.
 */
export function severalPayments(sent: SentPayments): Problem | undefined {
  const count =
    sent.authorization + sent.paymentAuthorization + Number(sent.paymentSignature) + Number(sent.xPayment)
  if (count <= 1) return undefined
  const field =
    sent.authorization > 1
      ? 'Authorization'
      : sent.paymentAuthorization > 0
        ? 'Payment-Authorization'
        : sent.authorization > 0 && sent.paymentSignature
          ? 'PAYMENT-SIGNATURE'
          : 'X-PAYMENT'
  return badRequest(
    `send one payment, not ${count}: one Payment credential in Authorization (these challenges carry no header parameter, so Payment-Authorization is never read), or one x402 payment in PAYMENT-SIGNATURE or X-PAYMENT`,
    {
      field,
      allowed: 'one of Authorization: Payment, PAYMENT-SIGNATURE and X-PAYMENT',
      // Nothing was claimed or charged: the same request with one of them will be judged.
      retryable: 'same-credential',
    },
  )
}
