/**
 * Mcp-Protocol-Version on every successful /mcp answer, naming the revision that answered, so that a
 * browser page (which reads only exposed headers, gateway/http/cors.ts) and a log can tell which one
 * it got. The SDK validates the request's header and refuses a revision it does not serve, so a
 * successful answer is in the revision the request named; a 2025-era initialize names none in a
 * header, and its answer says which one was agreed.
 */
const HEADER = 'mcp-protocol-version'

/** `request` is an unread copy of the request that `response` answers. */
export async function withAnsweredRevision(request: Request, response: Response): Promise<Response> {
  if (!response.ok || response.headers.has(HEADER)) return response
  const revision = request.headers.get(HEADER) ?? (await agreedAtInitialize(request, response))
  if (!revision) return response
  const copy = new Response(response.body, response)
  copy.headers.set(HEADER, revision)
  return copy
}

/** The protocolVersion of an initialize result; undefined for any other exchange. */
async function agreedAtInitialize(request: Request, response: Response): Promise<string | undefined> {
  try {
    const sent = (await request.clone().json()) as { method?: unknown }
    if (sent.method !== 'initialize') return undefined
    const answer = (await response.clone().json()) as { result?: { protocolVersion?: unknown } }
    const agreed = answer.result?.protocolVersion
    return typeof agreed === 'string' ? agreed : undefined
  } catch {
    return undefined // not JSON: nothing to name
  }
}
