/**
 * The submit endpoint takes JSON only: `application/json`, optionally with `charset=utf-8` (JSON is
 * UTF-8 by definition, RFC 8259), and no content coding.
 */

export function isJsonRequest(request: Request): boolean {
  const [type = '', ...params] = (request.headers.get('content-type') ?? '').split(';')
  if (type.trim().toLowerCase() !== 'application/json') return false
  for (const param of params) {
    const [name = '', value = ''] = param.split('=')
    if (name.trim().toLowerCase() !== 'charset') continue
    if (!['utf-8', 'utf8'].includes(value.trim().replace(/^"|"$/g, '').toLowerCase())) return false
  }
  const encoding = request.headers.get('content-encoding')
  return encoding === null || encoding.trim().toLowerCase() === 'identity' || encoding.trim() === ''
}
