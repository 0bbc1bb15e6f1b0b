/**
 * The budgets a paying client's new claims are held to, each kept by its own limiter object
 * (attempt-limiter.ts): the client's (refused per minute, unfinished per hour), its IPv6 /48's
 * (unfinished per hour, beside each /64's), and the whole processor account's (unfinished per
 * hour, what reaches the reconciler). An address many parties share (an IPv4 address, a /48) keeps
 * room for one more claim every few minutes past its bound (SHARED_ADDRESS_ROOM_MS).
 */
import {
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR,
  SHARED_ADDRESS_ROOM_MS,
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48,
} from '../../schema/config.js'
import { ipPrefix } from '../http/ip-prefix.js'
import { sha256Hex } from '../sha256-hex.js'
import type { AttemptLimiter } from './attempt-limiter.js'
import type { AttemptGate } from './charge.js'
import { type Budget, FAILED_PAYMENTS_PER_MINUTE, UNFINISHED_PAYMENTS_PER_HOUR } from './failure-window.js'

export interface LimitVars {
  FAILED_PAYMENTS_PER_MINUTE?: string
  UNFINISHED_PAYMENTS_PER_HOUR?: string
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48?: string
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR?: string
}

export interface BudgetGate extends AttemptGate {
  /** After retryAfterS: the wait is the whole account's (every client's), not this client's. */
  accountBusy?: () => boolean
}

const HOUR = 60 * 60_000
/** The account's object: a name no hash (hex) can take. */
const ACCOUNT = 'account'

const budget = (value: string | undefined, fallback: number, windowMs: number, shared = false): Budget => ({
  limit: Math.max(1, Number(value ?? fallback) || fallback),
  windowMs,
  ...(shared ? { roomMs: SHARED_ADDRESS_ROOM_MS } : {}),
})

/** The account's unfinished intents in the last hour, and its bound (the reconciler's metric). */
export async function accountBacklog(ns: DurableObjectNamespace<AttemptLimiter>, vars: LimitVars) {
  const limit = budget(
    vars.ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR,
    ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR,
    HOUR,
  ).limit
  return { unfinished: await ns.get(ns.idFromName(ACCOUNT)).count('unfinished', HOUR), limit }
}

/** `client` is a client key (client-key.ts). */
export async function attemptGate(
  ns: DurableObjectNamespace<AttemptLimiter>,
  client: string,
  vars: LimitVars,
): Promise<BudgetGate> {
  const named = async (key: string) => ns.get(ns.idFromName(await sha256Hex(`attempts:${key}`)))
  const own = await named(client)
  // An IPv6 client key is its /64 ("…::/64"); its /48 is a budget of its own.
  const site = client.endsWith('::/64') ? ipPrefix(client.slice(0, -3), 32, 48) : null
  const siteObject = site ? await named(site) : undefined
  const account = ns.get(ns.idFromName(ACCOUNT))
  const refused = budget(vars.FAILED_PAYMENTS_PER_MINUTE, FAILED_PAYMENTS_PER_MINUTE, 60_000)
  // An IPv4 address is often shared (NAT): room for a neighbour.
  const mine = budget(
    vars.UNFINISHED_PAYMENTS_PER_HOUR,
    UNFINISHED_PAYMENTS_PER_HOUR,
    HOUR,
    client.endsWith('/32'),
  )
  const perSite = budget(
    vars.UNFINISHED_PAYMENTS_PER_HOUR_PER_48,
    UNFINISHED_PAYMENTS_PER_HOUR_PER_48,
    HOUR,
    true,
  )
  const all = budget(vars.ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR, ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR, HOUR)
  let busy = false
  return {
    retryAfterS: async () => {
      const [a, b, c] = await Promise.all([
        own.waitS({ refused, unfinished: mine }),
        siteObject?.waitS({ unfinished: perSite }) ?? 0,
        account.waitS({ unfinished: all }),
      ])
      busy = c > 0 && c >= Math.max(a, b)
      return Math.max(a, b, c)
    },
    fail: () => own.spend('refused', refused),
    leftUnfinished: async () => {
      await Promise.all([
        own.spend('unfinished', mine),
        siteObject?.spend('unfinished', perSite),
        account.spend('unfinished', all),
      ])
    },
    accountBusy: () => busy,
  }
}
