/**
 * Content hashing for bundles, which are written in canonical JSON (schema/jcs.ts), so equal data
 * always gives equal bytes and equal hashes.
 */
import { createHash } from 'node:crypto'

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}
