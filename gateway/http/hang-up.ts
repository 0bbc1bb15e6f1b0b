/**
 * A client that closes its connection before its request has been read: there is nothing to
 * answer and nobody to answer it. It is logged as what it is, not as an unhandled error, and no
 * 500 is built (error logs and error rates stay about this service's own faults).
 */

/** workerd's error for reading from, or forwarding, a request whose client has gone. */
const CONNECTION_LOST = 'Network connection lost.'

export function isHangUp(error: unknown): boolean {
  return error instanceof Error && error.message === CONNECTION_LOST
}

/** Logs the hang-up and gives the runtime a response to drop: a bare 400, never a 500. */
export function hungUp(path: string): Response {
  console.log(`client hung up mid-body on ${path}`)
  return new Response(null, { status: 400 })
}
