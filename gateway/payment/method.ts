/**
 * What a payment method brings to the ledger for one payment it claimed: its settlement (the first
 * call, a retry's reconciliation, and a look after the delivery window closed) and the words its
 * refusals use. The ledger holds the claim and the money rules; the method only says what became of
 * its payment. Each method's own is in its folder (stripe/settle.ts, evm/settle.ts); methods.ts picks.
 */
import type { SettleOutcome } from './outcome.js'
import type { LedgerRecord } from './retention.js'
import type { SettleResult } from './settlement.js'

export interface MethodSettlement {
  /** How long one settlement may take: a claim's budget places and its copies' wait are sized by it. */
  boundMs: number
  /** The one settlement call of a new claim, its record already written. */
  charge(): Promise<SettleOutcome>
  /**
   * A pending payment sent again within its delivery window: what became of it, through reads that
   * cannot pay twice. `save` keeps the progress noted on the record (which it changes in place).
   */
  reconcile(record: LedgerRecord, save: (record: LedgerRecord) => Promise<void>): Promise<SettleOutcome>
  /** A pending payment sent again after its delivery window closed (`closed` says when): reads only. */
  pastWindow(record: LedgerRecord, closed: string): Promise<SettleResult>
}

/** A method's own words, for the refusals the ledger writes about its payments. */
export interface MethodWords {
  /** What its settlement's reference is ("PaymentIntent", "transaction"). */
  settlement: string
}
