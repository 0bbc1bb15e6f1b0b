/**
 * Whom the failed-payment limiter counts a request against. An address is a poor name for a
 * client: one host holds a whole IPv6 /64, and every agent running on Cloudflare Workers reaches us
 * from one shared egress address, which Cloudflare pairs with a `CF-Worker` header naming the
 * calling zone. So: IPv6 by /64, IPv4 by address, and the Workers egress address by that zone. From
 * any other address `CF-Worker` is ignored, so a client cannot mint itself fresh names.
 */
import { canonicalAddress, ipPrefix } from '../http/ip-prefix.js'

/** Cloudflare's address for subrequests from Workers in other zones (Workers docs, request headers). */
export const WORKERS_EGRESS_ADDRESS = '2a06:98c0:3600::103'
const WORKERS_EGRESS = canonicalAddress(WORKERS_EGRESS_ADDRESS)

export function clientKey(connectingIp: string | null, cfWorker: string | null): string {
  const address = connectingIp?.trim() ?? ''
  const zone = cfWorker?.trim().toLowerCase()
  if (zone && canonicalAddress(address) === WORKERS_EGRESS) return `worker:${zone}`
  return ipPrefix(address, 32, 64) ?? 'unknown'
}
