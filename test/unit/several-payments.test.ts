/**
 * One payment per request (draft-httpauth-payment-01 App. B.4): how the Payment credentials of a
 * field are counted, and which field the 400 for several names.
 */
import { describe, expect, it } from 'vitest'
import { paymentCredentialCount, severalPayments } from '../../gateway/payment/several-payments.js'

const none = { authorization: 0, paymentAuthorization: 0, paymentSignature: false, xPayment: false }

describe('several payments', () => {
  it('behavior: Payment credentials are counted per list member, whatever the case of the scheme', () => {
    expect(paymentCredentialCount(null)).toBe(0)
    expect(paymentCredentialCount('Payment eyJh')).toBe(1)
    expect(paymentCredentialCount('Payment eyJh, payment eyJi')).toBe(2)
    expect(paymentCredentialCount('Payment eyJh,PAYMENT eyJi')).toBe(2)
    // Another scheme, or a bare scheme name, is no Payment credential.
    expect(paymentCredentialCount('Bearer abc, Payment eyJh')).toBe(1)
    expect(paymentCredentialCount('Payment')).toBe(0)
    expect(paymentCredentialCount('Digest realm="a", payment="b"')).toBe(0)
  })

  it('behavior: one payment, or none, is not refused', () => {
    expect(severalPayments(none)).toBeUndefined()
    expect(severalPayments({ ...none, authorization: 1 })).toBeUndefined()
    expect(severalPayments({ ...none, paymentSignature: true })).toBeUndefined()
  })

  it('error: several payments are a 400 naming the field to leave out', () => {
    const field = (sent: Partial<typeof none>) => severalPayments({ ...none, ...sent })?.extra?.field
    expect(field({ authorization: 2 })).toBe('Authorization')
    expect(field({ authorization: 1, paymentAuthorization: 1 })).toBe('Payment-Authorization')
    expect(field({ paymentAuthorization: 1, paymentSignature: true })).toBe('Payment-Authorization')
    expect(field({ authorization: 1, paymentSignature: true })).toBe('PAYMENT-SIGNATURE')
    expect(field({ authorization: 1, xPayment: true })).toBe('X-PAYMENT')
    const refused = severalPayments({ ...none, authorization: 1, paymentAuthorization: 1 })
    expect(refused).toMatchObject({ status: 400, extra: { retryable: 'same-credential' } })
    expect(refused?.detail).toMatch(/Payment-Authorization is never read/)
  })
})
