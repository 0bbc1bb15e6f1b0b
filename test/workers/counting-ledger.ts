/**
 * The payment ledger as the round-trip tests see it: every call it makes to another Durable Object
 * (a limiter, a token's object) is written down with when it started and ended, on one counter
 * shared with its answers; what it does after an answer (places counted and given back) is held
 * until the test lets it go, so an answer that waited on it could never arrive.
 */
import type { AttemptLimiter } from '../../gateway/payment/attempt-limiter.js'
import { PaymentLedger, type SettleInput, type SettleResult } from '../../gateway/payment/ledger.js'

export interface ObjectCall {
  /** `limiter.reserve`, `limiter.release`, `limiter.spend`, `token.claimToken`. */
  what: string
  start: number
  end?: number
}

/** The calls a paid call's path may make: written down. */
const COUNTED = new Set(['reserve', 'claimToken', 'release', 'spend'])
/** The limiter calls made only after an answer: held. */
const AFTER_ANSWER = new Set(['release', 'spend'])

export class CountingLedger extends PaymentLedger {
  readonly calls: ObjectCall[] = []
  /** When each settle call answered, on the same counter as `calls`. */
  readonly answers: number[] = []
  /** The next call of each name here (`limiter.reserve`, `token.claimToken`) fails, as an unreachable object's would. */
  failing = new Set<string>()
  private tick = 0
  private letGo: () => void = () => {}
  private readonly held = new Promise<void>((resolve) => {
    this.letGo = resolve
  })

  override async settle(input: SettleInput): Promise<SettleResult> {
    const result = await super.settle(input)
    this.answers.push(++this.tick)
    return result
  }

  /** Resolves once everything done after the answers so far has ended. */
  async afterAnswersDone(): Promise<void> {
    await Promise.all([...this.afterAnswers])
  }

  /** Lets the calls made after the answers go on. */
  letAfterAnswersGo(): void {
    this.letGo()
  }

  protected override limiters(): DurableObjectNamespace<AttemptLimiter> {
    const real = super.limiters()
    return {
      idFromName: (name: string) => real.idFromName(name),
      get: (id: DurableObjectId) => this.counted('limiter', real.get(id)),
    } as unknown as DurableObjectNamespace<AttemptLimiter>
  }

  protected override tokenObject(token: string): DurableObjectStub<PaymentLedger> {
    return this.counted('token', super.tokenObject(token))
  }

  private counted<T extends object>(kind: string, stub: T): T {
    return new Proxy(stub, {
      get: (target, name) => {
        const method = Reflect.get(target, name) as unknown
        if (typeof name !== 'string' || !COUNTED.has(name)) return method
        return async (...args: unknown[]) => {
          if (AFTER_ANSWER.has(name)) await this.held
          const call: ObjectCall = { what: `${kind}.${name}`, start: ++this.tick }
          this.calls.push(call)
          try {
            if (this.failing.delete(call.what)) throw new Error(`${call.what} could not be reached`)
            // Called on the stub itself: an RPC method is no plain function (it has no `apply`).
            return await (target as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]?.(...args)
          } finally {
            call.end = ++this.tick
          }
        }
      },
    })
  }
}
