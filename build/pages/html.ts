/**
 * HTML escaping for text taken from content. Every string that did not come from our own templates
 * goes through escapeHtml before it reaches a page, inside text or inside a double-quoted attribute.
 */

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes the five characters that can end a text node or a quoted attribute. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c] as string)
}

/** An href from content: only http(s) URLs become links; anything else (javascript:, data:) is refused. */
export function safeHref(url: string): string | null {
  return /^https?:\/\//i.test(url) ? escapeHtml(url) : null
}
