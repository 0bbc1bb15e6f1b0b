/**
 * Every answer to a request that carries Payment-Authorization is kept out of shared caches
 * (draft-httpauth-payment-01 §11.10: `Cache-Control: private` or `no-store`). RFC 9111 §3.5 keeps
 * shared caches from storing answers to requests with Authorization, not with that field. This
 * service never reads a credential from it (its challenges carry no `header` parameter), but an
 * answer that would be public (a free route's) is made private all the same, keeping its max-age.
 */
import { PAYMENT_AUTHORIZATION_HEADER } from '../payment/several-payments.js'

export function privateIfPaymentAuthorization(request: Request, response: Response): Response {
  if (!request.headers.has(PAYMENT_AUTHORIZATION_HEADER)) return response
  const directives = (response.headers.get('cache-control') ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
  if (directives.some((d) => /^(private|no-store)$/i.test(d))) return response
  // `public` and a shared cache's own max-age (s-maxage) mean nothing beside `private`.
  const kept = directives.filter((d) => !/^(public$|s-maxage=)/i.test(d))
  const copy = new Response(response.body, response)
  copy.headers.set('cache-control', ['private', ...kept].join(', '))
  return copy
}
