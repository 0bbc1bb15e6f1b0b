/**
 * One payment configuration for tests that call the payment core directly (inside workerd): the card
 * through a processor nobody answers, the wallet rail on Base Sepolia's USDC with a facilitator nobody
 * answers (only what a ledger already holds can settle), and a paying client's key.
 */
import { checksum, type EvmConfig } from '../../gateway/payment/evm/config.js'
import { CHALLENGE_TTL_MS } from '../../schema/config.js'

const NOBODY = 'http://127.0.0.1:9'

export const testEvm: EvmConfig = {
  chainId: 84532,
  token: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  tokenName: 'USDC',
  tokenVersion: '2',
  decimals: 6,
  recipient: checksum('0x00000000000000000000000000000000000000aa'),
  facilitatorUrl: NOBODY,
  rpcUrl: `${NOBODY}/rpc`,
  timeoutMs: 1000,
  maxTimeoutSeconds: 300,
}

/** A PaymentConfig (gateway/payment/methods.ts) without receipt keys: nothing here signs a receipt. */
export const testPayment = {
  realm: 'service.example',
  hmacSecret: 'a challenge secret of at least thirty-two bytes',
  networkId: 'acct_test',
  challengeTtlMs: CHALLENGE_TTL_MS,
  processor: { url: NOBODY, secret: 's', timeoutMs: 1000 },
  receipts: {} as never,
  evm: testEvm,
}

/** A paying client's key (client-key.ts), an address kept for documentation (RFC 5737). */
export const testClient = '192.0.2.1/32'
