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
import { type Budget, FAILED_PAYMENTS_PER_MINUTE, UNFINISHED_PAYMENTS_PER_HOUR } from './failure-window.js'
import { CARD_METHOD } from './methods.js'

export interface LimitVars {
  PROCESSOR_TIMEOUT_MS?: string
  FAILED_PAYMENTS_PER_MINUTE?: string
  UNFINISHED_PAYMENTS_PER_HOUR?: string
  UNFINISHED_PAYMENTS_PER_HOUR_PER_48?: string
  ACCOUNT_UNFINISHED_PAYMENTS_PER_HOUR?: string
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

/**
 * A new claim's places in the budgets: whether it may go on (`waitS` 0) and, after its outcome,
 * what it cost. The ledger object reserves them itself (ledger.ts), once per new claim.
 */
export interface Places {
  /** 0: a place is held under every budget; else the seconds to wait (nothing held). */
  waitS: number
  /** With a wait: the whole account's bound is reached (every client's), not this client's. */
  accountBusy: boolean
  /**
   * After the outcome is recorded: counts what the claim cost (`fresh`: the processor refused the
   * card just now; `newIntent`: it created an intent that did not complete), then gives back every
   * place not counted. Never before the outcome: until then the place stands in for the count.
   */
  settle(cost: { fresh?: boolean; newIntent?: boolean }): Promise<void>
}

/**
 * Reserves a new claim's place under every budget of client key `client` (client-key.ts), in the
 * client's object, its /48's and its method's account object at once (one round trip, not three).
 * In parallel, a client its own budget refuses may hold a place in the account's for that one
 * round trip (given back once the refusal is answered): the price of not waiting on the
 * client's answer before asking the account. `method`: each rail has an account bound of its own
 * (a card flood never shuts out a wallet buyer, nor the reverse). `settleBoundMs`: how long this
 * method's settlement may take, which the place outlives (the card's processor bound when absent).
 */
export async function reservePlaces(
  ns: DurableObjectNamespace<AttemptLimiter>,
  client: string,
  vars: LimitVars,
  method: string,
  settleBoundMs?: number,
): Promise<Places> {
  const named = async (key: string) => ns.get(ns.idFromName(await sha256Hex(`attempts:${key}`)))
  // An IPv6 client key is its /64 ("…::/64"); its /48 is a budget of its own.
  const site = client.endsWith('::/64') ? ipPrefix(client.slice(0, -3), 32, 48) : null
  const [own, siteObject] = await Promise.all([named(client), site ? named(site) : undefined])
  const account = accountObject(ns, method)
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
  // form), and a margin: after that it lapses, so a request that died cannot keep it. A wallet
  // settlement (facilitator and chain calls) may outlast the card's: its place too.
  const cardHoldMs = 2 * Number(vars.PROCESSOR_TIMEOUT_MS ?? PROCESSOR_TIMEOUT_MS) + HOLD_MARGIN_MS
  const holdMs =
    settleBoundMs === undefined ? cardHoldMs : Math.max(cardHoldMs, settleBoundMs + HOLD_MARGIN_MS)
  const id = crypto.randomUUID()
  const steps: [AttemptLimiterStub, Record<string, Budget>][] = [
    [own, { refused, unfinished: mine }],
    ...(siteObject
      ? [[siteObject, { unfinished: perSite }] as [AttemptLimiterStub, Record<string, Budget>]]
      : []),
    [account, { unfinished: all }],
  ]
  const answers = await Promise.allSettled(
    steps.map(([object, budgets]) => object.reserve(budgets, id, holdMs)),
  )
  const waits = answers.map((a) => (a.status === 'fulfilled' ? a.value : Number.NaN))
  const held = steps.filter((_, i) => waits[i] === 0).map(([object]) => object)
  const release = () => Promise.all(held.map((object) => object.release(id))).then(() => {})
  // A limiter that failed: nothing is claimed, and the places the others gave back at once.
  const failed = answers.find((a) => a.status === 'rejected')
  if (failed) {
    await release()
    throw failed.reason
  }
  // The client's own wait first, its /48's next, the account's last, as a client is told it.
  const refusing = waits.findIndex((w) => w > 0)
  // Refused: the places taken are given back after the refusal is answered, like any other.
  if (refusing >= 0)
    return { waitS: waits[refusing] ?? 0, accountBusy: refusing === steps.length - 1, settle: release }
  return {
    waitS: 0,
    accountBusy: false,
    settle: async ({ fresh, newIntent }) => {
      // Each count takes the place of the hold in its object; the holds left are given back after.
      await Promise.all([
        ...(newIntent
          ? [
              own.spend('unfinished', mine, id),
              siteObject?.spend('unfinished', perSite, id),
              account.spend('unfinished', all, id),
            ]
          : []),
        ...(fresh ? [own.spend('refused', refused, id)] : []),
      ])
      await release()
    },
  }
}
