/**
 * One challenge code for every payment method: the card and the wallet rail issue their challenges
 * and check the one a credential echoes through the same two functions, each bringing only its
 * offer. Inside workerd, with both rails' real offers and their real verify paths.
 */
import { describe, expect, it } from 'vitest'
import {
  asIssued,
  type Challenge,
  formatChallenge,
  issueChallenge,
  type Offer,
  verifyEchoedChallenge,
} from '../../gateway/payment/challenge.js'
import { evmOffer } from '../../gateway/payment/evm/offer.js'
import { cardOffer } from '../../gateway/payment/methods.js'
import { type Ledger, pay } from '../../gateway/payment/pay.js'
import { testClient, testEvm, testPayment } from '../support/payment-config.js'

const config = testPayment
const evm = testEvm
const binding = { via: 'http' as const, target: 'GET /v1/fde-lessons', query: 'topic=retry' }
const another = { ...binding, query: 'topic=deploy' }
const offers: [string, Offer][] = [
  ['card', cardOffer(config)],
  ['wallet', evmOffer(evm)],
]

describe('one challenge code for both rails', () => {
  for (const [rail, offer] of offers)
    it(`behavior: a ${rail} challenge verifies for its offer and request, whatever its description says`, async () => {
      const now = Date.parse('2026-11-25T12:00:00Z')
      const issued = await issueChallenge(config, offer, binding, 'Lessons', now)
      expect(issued).toMatchObject({ method: offer.method, intent: 'charge', request: offer.request })
      expect(issued.expires).toBe(new Date(now + config.challengeTtlMs).toISOString())
      const echoed = { ...issued, description: 'anything the client says' }
      expect(await verifyEchoedChallenge(config, offer, echoed, binding)).toEqual({
        ok: true,
        expiresAt: now + config.challengeTtlMs,
      })
      // Handed back, it is the challenge issued, byte for byte.
      expect(formatChallenge(asIssued(echoed, 'Lessons'))).toBe(formatChallenge(issued))
    })

  it('refusal: a challenge is refused for the other rail, another request, or with its id or bound members changed', async () => {
    const card = await issueChallenge(config, cardOffer(config), binding, 'Lessons')
    const wallet = await issueChallenge(config, evmOffer(evm), binding, 'Lessons')
    const detailOf = async (offer: Offer | undefined, echoed: Challenge, b = binding) => {
      const checked = await verifyEchoedChallenge(config, offer, echoed, b)
      return checked.ok ? 'ok' : checked.detail
    }
    expect(await detailOf(evmOffer(evm), card)).toMatch(/does not match the current offer/)
    expect(await detailOf(undefined, card)).toMatch(/does not match the current offer/)
    expect(await detailOf(cardOffer(config), wallet)).toMatch(/does not match the current offer/)
    expect(await detailOf(cardOffer(config), card, another)).toMatch(/issued for another request/)
    expect(await detailOf(cardOffer(config), { ...card, id: wallet.id })).toMatch(/not issued by this server/)
    const later = new Date(Date.parse(card.expires as string) + 60_000).toISOString()
    expect(await detailOf(cardOffer(config), { ...card, expires: later })).toMatch(
      /not issued by this server/,
    )
  })

  it('refusal: both rails refuse a challenge for another request with the same problem, before the ledger', async () => {
    let ledgerCalls = 0
    const ledger = {
      settle: async () => {
        ledgerCalls++
        return { ok: false, reason: 'unavailable', detail: 'not reached' }
      },
    } as unknown as Ledger
    const card = await issueChallenge(config, cardOffer(config), another, 'Lessons')
    const wallet = await issueChallenge(config, evmOffer(evm), another, 'Lessons')
    const byCard = await pay(
      config,
      ledger,
      { challenge: card, payload: { spt: 'spt_test_ok' } },
      binding,
      testClient,
    )
    const authorization = {
      from: '0x1',
      to: '0x2',
      value: '1',
      validAfter: '0',
      validBefore: '1',
      nonce: '0x3',
    }
    const byWallet = await pay(
      config,
      ledger,
      { echoed: wallet, authorization, signature: '0x', wire: 'mpp' },
      binding,
      testClient,
    )
    for (const settled of [byCard, byWallet]) {
      expect(settled.ok).toBe(false)
      if (!settled.ok)
        expect(settled.refusal).toMatchObject({
          problem: 'invalid-challenge',
          detail: 'the credential was issued for another request (path, query, tool or arguments)',
        })
    }
    expect(ledgerCalls).toBe(0)
  })
})
