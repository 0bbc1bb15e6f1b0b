/**
 * The budgets a paying client's new claims are held to, each kept by its own limiter object
 * (attempt-limiter.ts): the client's (refused per minute, unfinished per hour), its IPv6 /48's
 * (unfinished per hour, beside each /64's), and the whole processor account's (unfinished per
 * hour, what reaches the reconciler). An address many parties share (an IPv4 address, a /48) keeps
 * room for one more claim every few minutes past its bound (SHARED_ADDRESS_ROOM_MS).
 */
import {
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR,
  HOLD_MARGIN_MS,
  PROCESSOR_TIMEOUT_MS,
  SHARED_ADDRESS_ROOM_MS,
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48,
} from '../../schema/config.js'
import { ipPrefix } from '../http/ip-prefix.js'
import { sha256Hex } from '../sha256-hex.js'
import type { AttemptLimiter } from './attempt-limiter.js'
import type { AttemptGate } from './charge.js'
import { METHOD as CARD_METHOD } from './charge.js'
import { type Budget, FAILED_PAYMENTS_PER_MINUTE, UNFINISHED_PAYMENTS_PER_HOUR } from './failure-window.js'

export interface LimitVars {
  PROCESSOR_TIMEOUT_MS?: string
  FAILED_PAYMENTS_PER_MINUTE?: string
  UNFINISHED_PAYMENTS_PER_HOUR?: string
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48?: string
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR?: string
}

export interface BudgetGate extends AttemptGate {
  /** After retryAfterS: the wait is the whole account's (every client's), not this client's. */
  accountBusy?: () => boolean
}

type AttemptLimiterStub = DurableObjectStub<AttemptLimiter>
const HOUR = 60 * 60_000
/** The account's object: a name no hash (hex) can take. */
const ACCOUNT = 'account'

const budget = (value: string | undefined, fallback: number, windowMs: number, shared = false): Budget => ({
  limit: Math.max(1, Number(value ?? fallback) || fallback),
  windowMs,
  ...(shared ? { roomMs: SHARED_ADDRESS_ROOM_MS } : {}),
})

/** The whole processor account's budget and the one object that keeps it. */
const accountBudget = (vars: LimitVars) =>
  budget(vars.ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR, ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR, HOUR)
/**
 * The card's account object keeps its first name (the reconciler reads its backlog); every other
 * method has its own beside it, so one rail's unfinished payments never hold up another's buyers.
 */
const accountObject = (ns: DurableObjectNamespace<AttemptLimiter>, method = CARD_METHOD) =>
  ns.get(ns.idFromName(method === CARD_METHOD ? ACCOUNT : `${ACCOUNT}:${method}`))

/** The account's unfinished intents in the last hour, and its bound (the reconciler's metric). */
export async function accountBacklog(ns: DurableObjectNamespace<AttemptLimiter>, vars: LimitVars) {
  const { limit } = accountBudget(vars)
  return { unfinished: await accountObject(ns).count('unfinished', HOUR), limit }
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
  let account = accountObject(ns)
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
  const all = accountBudget(vars)
  // A claim's place is held as long as its processor call may take (two tries of the card's token
  // form), and a margin: after that it lapses, so a request that died cannot keep it.
  const cardHoldMs = 2 * Number(vars.PROCESSOR_TIMEOUT_MS ?? PROCESSOR_TIMEOUT_MS) + HOLD_MARGIN_MS
  let holdMs = cardHoldMs
  const id = crypto.randomUUID()
  const held: AttemptLimiterStub[] = []
  let busy = false
  return {
    // The client's own place first, its /48's next, the account's last: a client its own budget
    // refuses never takes (even briefly) a place in the account's.
    reserve: async (method, settleBoundMs) => {
      account = accountObject(ns, method)
      // A wallet settlement (facilitator and chain calls) may outlast the card's: its place too.
      holdMs = settleBoundMs === undefined ? cardHoldMs : Math.max(cardHoldMs, settleBoundMs + HOLD_MARGIN_MS)
      const steps: [AttemptLimiterStub | undefined, Record<string, Budget>][] = [
        [own, { refused, unfinished: mine }],
        [siteObject, { unfinished: perSite }],
        [account, { unfinished: all }],
      ]
      for (const [object, budgets] of steps) {
        if (!object) continue
        const wait = await object.reserve(budgets, id, holdMs)
        if (wait > 0) {
          busy = object === account
          await release()
          return wait
        }
        held.push(object)
      }
      return 0
    },
    fail: () => own.spend('refused', refused, id),
    leftUnfinished: async () => {
      await Promise.all([
        own.spend('unfinished', mine, id),
        siteObject?.spend('unfinished', perSite, id),
        account.spend('unfinished', all, id),
      ])
    },
    release: () => release(),
    accountBusy: () => busy,
  }

  async function release() {
    await Promise.all(held.splice(0).map((object) => object.release(id)))
  }
}
