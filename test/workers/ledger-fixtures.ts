/**
 * What the ledger tests inside workerd start from: a ledger object of their own, and a record
 * settled at a given time with its receipt, as the ledger writes one.
 */
import { env } from 'cloudflare:test'
import type { EvmConfig } from '../../gateway/payment/evm/config.js'
import type { PaymentLedger, SettleInput } from '../../gateway/payment/ledger.js'
import type { LedgerRecord } from '../../gateway/payment/retention.js'

/** A fresh ledger object (its own storage), as one challenge gets. */
export const freshLedger = () =>
  (env as unknown as { LEDGER: DurableObjectNamespace<PaymentLedger> }).LEDGER.get(
    (env as unknown as { LEDGER: DurableObjectNamespace }).LEDGER.newUniqueId(),
  )

/** A card payment settled at `settledAt` under the Idempotency-Key `k`, its delivery window a minute. */
export function settledRecord(settledAt: number, identity: Partial<LedgerRecord>): LedgerRecord {
  return {
    ...identity,
    state: 'settled',
    firstAttemptAt: settledAt,
    expiresAt: settledAt + 60_000,
    intentId: 'pi_1',
    settledAt,
    idempotencyKey: 'k',
    receipt: {
      status: 'success',
      method: 'stripe',
      timestamp: new Date(settledAt).toISOString(),
      reference: 'pi_1',
      challengeId: 'c',
      amount: '50',
      currency: 'usd',
    },
  }
}

/** A card payment's settle call for the challenge `c`, its processor and expiry as given. */
export const cardSettle = (
  expiresAt: number,
  processor: SettleInput['processor'],
  extra: Partial<SettleInput> = {},
): SettleInput => ({
  challengeId: 'c',
  payment: 'p',
  method: 'stripe',
  spt: 'spt_test_x',
  amount: '50',
  currency: 'usd',
  realm: 'r',
  expiresAt,
  now: Date.now(),
  processor,
  limitedForS: 0,
  ...extra,
})

/** The wallet rail as the ledger tests settle it: stand-in URLs the test answers through fetch. */
export const walletEvm: EvmConfig = {
  chainId: 84532,
  token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  tokenName: 'USDC',
  tokenVersion: '2',
  decimals: 6,
  recipient: '0x5E11E7000000000000000000000000000000cA5E',
  facilitatorUrl: 'https://facilitator.test',
  rpcUrl: 'https://rpc.test/',
  timeoutMs: 5_000,
  maxTimeoutSeconds: 300,
}
