/**
 * HTML to plain text for the re-read: what a reader would see, with no markup, entities decoded and
 * white space collapsed, so a quote can be looked for verbatim.
 */

/** Tags that sit inside a run of text: dropped with no gap ("$<b>0.99</b>" reads "$0.99"). */
const INLINE =
  /^(a|abbr|b|bdi|bdo|cite|code|data|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var|wbr)$/i

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  bull: '•',
  middot: '·',
  times: '×',
  cent: '¢',
  pound: '£',
  euro: '€',
  yen: '¥',
  copy: '©',
  reg: '®',
  trade: '™',
}

export function htmlToText(html: string): string {
  const stripped = html
    // Never visible text: scripts, styles, comments, templates and the document head.
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<(script|style|template|head|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    // Any other tag: inline ones vanish, block ones become a gap between words.
    .replace(/<\/?([a-zA-Z][a-zA-Z0-9-]*)\b[^>]*>/g, (_, name: string) => (INLINE.test(name) ? '' : ' '))
  return normaliseSpace(decodeEntities(stripped))
}

/** One pass, so "&amp;lt;" becomes the text "&lt;", as a browser shows it. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code =
        body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1))
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[body.toLowerCase()] ?? whole
  })
}

/** Every run of white space (no-break spaces included) becomes one space; ends trimmed. */
export function normaliseSpace(text: string): string {
  return text.replace(/[\s\u00a0\u200b]+/g, ' ').trim()
}
