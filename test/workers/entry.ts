/** The pool needs a Worker entry; the tests import the payment modules directly. */
export { PaymentLedger } from '../../gateway/payment/ledger.js'

export default {
  fetch: () => new Response('payment vectors test worker'),
}
