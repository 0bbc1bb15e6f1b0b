/**
 * RFC 9110 auth-params for the Payment scheme: parse `Payment k=v, k="v"` and format it back.
 * A linear scanner (no backtracking regular expressions), so hostile input costs linear time.
 */

export class AuthParamsError extends Error {
  override name = 'AuthParamsError'
}

const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/

/**
 * Parses the parameters of the first `Payment` challenge in a header value.
 * Duplicate parameter names are an error; unknown names are kept (callers ignore them).
 */
export function parsePaymentParams(header: string): Record<string, string> {
  const text = header.trim()
  const scheme = /^payment(?=\s|$)/i.exec(text)
  if (!scheme) throw new AuthParamsError('not a Payment challenge')
  const params: Record<string, string> = {}
  let i = scheme[0].length
  const skip = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++
  }
  for (;;) {
    skip()
    while (text[i] === ',') {
      i++
      skip()
    }
    if (i >= text.length) break
    let name = ''
    while (i < text.length && TOKEN_CHAR.test(text[i] as string)) name += text[i++]
    skip()
    if (!name || text[i] !== '=') {
      // A bare token after the parameters starts the next challenge: stop at this one.
      if (name && Object.keys(params).length) break
      throw new AuthParamsError('expected name=value')
    }
    i++
    skip()
    let value = ''
    if (text[i] === '"') {
      i++
      let closed = false
      while (i < text.length) {
        const c = text[i++] as string
        if (c === '\\' && i < text.length) value += text[i++]
        else if (c === '"') {
          closed = true
          break
        } else value += c
      }
      // An unterminated quoted value ends the header; a malformed extension is simply dropped.
      if (!closed) break
    } else {
      while (i < text.length && TOKEN_CHAR.test(text[i] as string)) value += text[i++]
      if (text[i] === '=') while (text[i] === '=') value += text[i++] // token68-style padding
    }
    const key = name.toLowerCase()
    if (key in params) throw new AuthParamsError(`duplicate parameter ${key}`)
    params[key] = value
    skip()
    if (i < text.length && text[i] !== ',') {
      // Text after a quoted value that is not a separator (an unescaped quote): ignore the rest.
      break
    }
  }
  return params
}

/** Formats `Payment k="v", …` in the given order, refusing values that could inject header lines. */
export function formatPaymentParams(params: readonly (readonly [string, string | undefined])[]): string {
  const parts: string[] = []
  for (const [name, value] of params) {
    if (value === undefined) continue
    if (/[\r\n\0]/.test(value)) throw new AuthParamsError(`control character in ${name}`)
    parts.push(`${name}="${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)
  }
  return `Payment ${parts.join(', ')}`
}
