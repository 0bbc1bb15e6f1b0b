/**
 * `Accept` read as RFC 9110 says: media ranges with q-values. Markdown is chosen only when the
 * client names `text/markdown` itself with a q above zero and at least that of JSON (named, or
 * through `application/*` or a wildcard); anything else, a refusal of Markdown included, is JSON.
 */

interface MediaRange {
  type: string
  q: number
}

function ranges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part) => {
    const [range, ...params] = part.split(';').map((p) => p.trim().toLowerCase())
    if (!range) return []
    let q = 1
    for (const param of params) {
      if (!/^q\s*=/.test(param)) continue
      // RFC 9110 qvalue: 0 to 1 with at most three decimals; a range with any other q is ignored.
      const match = /^q\s*=\s*(0(\.\d{0,3})?|1(\.0{0,3})?)$/.exec(param)
      if (!match) return []
      q = Number(match[1])
    }
    return [{ type: range, q }]
  })
}

export function prefersMarkdown(accept: string | null): boolean {
  if (!accept) return false
  const listed = ranges(accept)
  const qOf = (...types: string[]) =>
    Math.max(0, ...listed.filter((r) => types.includes(r.type)).map((r) => r.q))
  // The most specific range that names a type decides its q (RFC 9110 12.5.1).
  const markdown = listed.filter((r) => r.type === 'text/markdown')
  if (!markdown.length) return false
  const qMarkdown = Math.max(...markdown.map((r) => r.q))
  const json = listed.some((r) => r.type === 'application/json')
    ? qOf('application/json')
    : listed.some((r) => r.type === 'application/*')
      ? qOf('application/*')
      : qOf('*/*')
  return qMarkdown > 0 && qMarkdown >= json
}
