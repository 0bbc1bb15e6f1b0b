/** The pool needs a Worker entry; the tests import the payment modules directly. */
export { AttemptLimiter } from '../../gateway/payment/attempt-limiter.js'
export { PaymentLedger } from '../../gateway/payment/ledger.js'
export { CountingLedger } from './counting-ledger.js'

export default {
  fetch: () => new Response('payment vectors test worker'),
}
