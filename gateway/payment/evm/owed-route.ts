/**
 * The operator's list of wallet payments owed back (owed.ts), for the operator's command
 * (scripts/deploy/wallet-owed.ts). Only with `Authorization: Bearer <OPERATOR_TOKEN>` (a secret);
 * without the secret set (at least MIN_SECRET_BYTES characters), the path does not exist.
 * - GET: the debts, reading at most `limit` notes (1-500, default 200) from the chain; `more: true`
 *   says to ask again. `?at=<ISO time>` asks as of a later time and only reads (nothing is kept or
 *   dropped), resuming from `?after=<next>`.
 * - POST `{"challengeId", "transaction"}`: the operator paid that debt back in `transaction`; it is
 *   remembered and never listed again.
 */
import type { Env } from '../../env.js'
import { badRequest, notFound, problemResponse } from '../../http/problem.js'
import { sha256Hex } from '../../sha256-hex.js'
import { MIN_SECRET_BYTES, sameId } from '../challenge-id.js'
import type { PaymentLedger } from '../ledger.js'
import type { PaymentConfig } from '../methods.js'
import { type WalletBook, walletOwed } from './owed.js'
import { dayBookName, LEGACY_DAY } from './wallet-book.js'

export const WALLET_OWED_PATH = '/v1/operator/wallet-owed'

const DEFAULT_LIMIT = 200
const MAX_LIMIT = 500
const TRANSACTION = /^0x[0-9a-fA-F]{64}$/

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  })

export async function walletOwedRoute(request: Request, env: Env, config: PaymentConfig): Promise<Response> {
  const secret = env.OPERATOR_TOKEN
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
  // Digests compared in constant time: the secret's length says nothing either.
  // A secret shorter than the HMAC key's minimum is treated as unset: the list does not exist.
  if (
    !secret ||
    secret.length < MIN_SECRET_BYTES ||
    !config.evm ||
    !sameId(await sha256Hex(given), await sha256Hex(secret))
  )
    return problemResponse(notFound(`no such path: ${WALLET_OWED_PATH}; see /openapi.json`))
  const bookOf = (day: string) => env.LEDGER.get(env.LEDGER.idFromName(dayBookName(day)))
  if (request.method === 'POST') return repaid(request, bookOf)

  const params = new URL(request.url).searchParams
  const at = params.get('at')
  const now = at === null ? Date.now() : Date.parse(at)
  if (Number.isNaN(now))
    return problemResponse(
      badRequest('at must be an ISO 8601 time', { field: 'at', allowed: 'an ISO 8601 time' }),
    )
  const limit = Number(params.get('limit') ?? DEFAULT_LIMIT)
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    return problemResponse(
      badRequest(`limit must be an integer from 1 to ${MAX_LIMIT}`, {
        field: 'limit',
        allowed: `an integer from 1 to ${MAX_LIMIT}`,
      }),
    )
  const after = params.get('after') ?? undefined
  const book: WalletBook = {
    days: () => bookOf(LEGACY_DAY).walletDays(),
    notes: (day, from, count) => bookOf(day).walletNotes(from, count),
    debts: (day) => bookOf(day).walletDebts(),
    keepDebt: (day, debt) => bookOf(day).keepWalletDebt(debt),
    drop: (day, id) => bookOf(day).dropWalletNote(id),
  }
  // Asked as of another time: what would be owed then, read only (the chain is read as it is now).
  const report = await walletOwed(config.evm, book, now, {
    write: at === null,
    limit,
    ...(after ? { after } : {}),
  })
  return json({ at: new Date(now).toISOString(), ...report })
}

async function repaid(
  request: Request,
  bookOf: (day: string) => DurableObjectStub<PaymentLedger>,
): Promise<Response> {
  const body = (await request.json().catch(() => undefined)) as Record<string, unknown> | undefined
  const challengeId = body?.challengeId
  const transaction = body?.transaction
  if (typeof challengeId !== 'string' || !challengeId)
    return problemResponse(
      badRequest('challengeId is required', { field: 'challengeId', allowed: "a debt's challengeId" }),
    )
  if (typeof transaction !== 'string' || !TRANSACTION.test(transaction))
    return problemResponse(
      badRequest('transaction must be the 0x hash that paid the debt back', {
        field: 'transaction',
        allowed: 'a 0x-prefixed 32-byte transaction hash',
      }),
    )
  for (const day of await bookOf(LEGACY_DAY).walletDays()) {
    const debt = await bookOf(day).walletDebtRepaid(challengeId, transaction)
    if (debt) return json({ repaid: debt })
  }
  return problemResponse(notFound(`no debt is listed for challenge ${challengeId}`, { field: 'challengeId' }))
}
