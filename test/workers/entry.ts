/** The pool needs a Worker entry; the tests import the payment modules directly. */
export default {
  fetch: () => new Response('payment vectors test worker'),
}
