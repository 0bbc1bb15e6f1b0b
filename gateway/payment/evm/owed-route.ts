/**
 * GET /v1/operator/wallet-owed: the wallet payments owed back (owed.ts), for the operator's
 * command (scripts/deploy/wallet-owed.ts). Only with `Authorization: Bearer <OPERATOR_TOKEN>` (a
 * secret); without the secret set, the path does not exist. `?at=<ISO time>` asks as of a later
 * time (what will be owed then); it only reads.
 */
import type { Env } from '../../env.js'
import { badRequest, notFound, problemResponse } from '../../http/problem.js'
import { sha256Hex } from '../../sha256-hex.js'
import { sameId } from '../challenge-id.js'
import type { PaymentConfig } from '../charge.js'
import { walletBookOf } from '../http.js'
import { walletOwed } from './owed.js'

export const WALLET_OWED_PATH = '/v1/operator/wallet-owed'

export async function walletOwedRoute(request: Request, env: Env, config: PaymentConfig): Promise<Response> {
  const secret = env.OPERATOR_TOKEN
  const given = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1] ?? ''
  // Digests compared in constant time: the secret's length says nothing either.
  if (!secret || !config.evm || !sameId(await sha256Hex(given), await sha256Hex(secret)))
    return problemResponse(notFound(`no such path: ${WALLET_OWED_PATH}; see /openapi.json`))
  const at = new URL(request.url).searchParams.get('at')
  const now = at === null ? Date.now() : Date.parse(at)
  if (Number.isNaN(now))
    return problemResponse(
      badRequest('at must be an ISO 8601 time', { field: 'at', allowed: 'an ISO 8601 time' }),
    )
  const book = walletBookOf(env)
  const ledgerOf = (id: string) => env.LEDGER.get(env.LEDGER.idFromName(id))
  const report = await walletOwed(
    config.evm,
    {
      notes: () => book.walletNotes(),
      drop: (id) => book.dropWalletNote(id),
      state: (id) => ledgerOf(id).paymentState(),
    },
    now,
  )
  return new Response(JSON.stringify({ at: new Date(now).toISOString(), ...report }), {
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
  })
}
