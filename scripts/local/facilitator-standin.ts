/**
 * The local x402 facilitator stand-in, and the one chain it settles on: what `npm start` and the
 * tests pay the wallet rail through, with no network. Development and test only; a deployed gateway
 * refuses a loopback facilitator (gateway/payment/evm/config.ts).
 *
 * It behaves as a facilitator and an EIP-3009 token contract do where the gateway depends on them:
 * - `POST /verify` and `POST /settle` take the x402 v2 body `{x402Version, paymentPayload,
 *   paymentRequirements}`. Both check what the chain would: the token exists on that chain, the
 *   EIP-712 signature under the token's own domain (not the one the client names), `validAfter <
 *   now < validBefore`, the nonce unused for that payer, the balance, and that the authorization pays
 *   what the requirements ask. `/verify` moves nothing; `/settle` moves the value once and answers
 *   `{success: true, transaction, network, payer}`. A used nonce is refused, as the contract reverts.
 * - `POST /rpc` answers JSON-RPC as the chain's node would: `eth_chainId`, `eth_blockNumber`,
 *   `eth_call` of `authorizationState(address,bytes32)` and `balanceOf(address)`, `eth_getLogs` of
 *   the token's events and `eth_getTransactionReceipt`, so the gateway reads an authorization's state
 *   and what the transaction that used it moved exactly as it would on Base. A transfer by
 *   authorization logs `AuthorizationUsed(from, nonce)` then `Transfer(from, to, value)`, as
 *   FiatTokenV2 does; a cancelled authorization logs `AuthorizationCanceled` and moves nothing; both
 *   mark the nonce used. Signatures with `v` other than 27 or 28 are refused, as the token's ECRecover is.
 * - Every address it has not seen holds 100 test tokens.
 *
 * Test controls (by payer address, so tests with fresh keys never disturb each other):
 * `POST /__standin/balance {address, amount}` sets a balance (amount in base units);
 * `POST /__standin/fault {address, fault}` makes that payer's next settlements `stall` (held until
 * `POST /__standin/release {address}` or `stallMs`, then settled and answered), `fail` (503, nothing
 * settled), `lost` (settled, then the connection is dropped with no answer), `silent` (nothing
 * settled, connection dropped), `pending` (broadcast but not mined: answered `success: false,
 * errorReason: "settlement_pending"` with the transaction, as the reference facilitator answers when
 * its wait for the receipt fails; mined by `POST /__standin/mine {address}`) or `fake` (answered
 * settled with a made-up transaction, nothing moved); `fault: null` clears it.
 * `POST /__standin/burn {address, nonce, how}` uses a nonce without paying the recipient, as anyone
 * holding the payer's key can for the gas of one transaction: `cancel` (cancelAuthorization) or
 * `self` (a 0-value transferWithAuthorization to the payer). `GET /__standin/ledger` lists settlements
 * (transfers to a recipient through `/settle`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { type Hex, keccak256, recoverTypedDataAddress, toHex } from 'viem'
import { TRANSFER_TYPES } from '../../schema/eip3009.js'

/** How long a stalled settlement is held when nobody releases it (npm start users). */
const DEFAULT_STALL_MS = 30_000

export interface StandinToken {
  chainId: number
  address: string
  name: string
  version: string
  decimals: number
}

/** The token `npm start` and the tests pay in: Base Sepolia's USDC, its address and EIP-712 domain. */
export const LOCAL_TOKEN: StandinToken = {
  chainId: 84532,
  address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  name: 'USDC',
  version: '2',
  decimals: 6,
}

/** Who the local service is paid to (a fixed address with no known key: nothing can spend it). */
export const LOCAL_RECIPIENT = '0x5e11e7000000000000000000000000000000ca5e'

export interface Settlement {
  transaction: string
  network: string
  token: string
  from: string
  to: string
  value: string
  nonce: string
  block: number
}

export interface FacilitatorStandin {
  url: string
  /** JSON-RPC endpoint of the stand-in chain. */
  rpcUrl: string
  settlements: Settlement[]
  close(): Promise<void>
}

export interface FacilitatorOptions {
  port?: number
  host?: string
  stallMs?: number
  tokens?: StandinToken[]
}

type Fault = 'stall' | 'fail' | 'lost' | 'silent' | 'pending' | 'fake'

/** A log as a node returns it inside a receipt or from `eth_getLogs`. */
interface Log {
  address: string
  topics: string[]
  data: string
  blockNumber: string
  transactionHash: string
  logIndex: string
  removed: false
}

/** A mined transaction: its block and logs. */
interface MinedTransaction {
  hash: string
  block: number
  logs: Log[]
}

const TYPES = TRANSFER_TYPES

/** Selectors and the event topic, computed from their signatures rather than typed in. */
const sel = (signature: string) => keccak256(toHex(signature)).slice(0, 10)
export const AUTHORIZATION_STATE = sel('authorizationState(address,bytes32)')
const BALANCE_OF = sel('balanceOf(address)')
export const AUTHORIZATION_USED = keccak256(toHex('AuthorizationUsed(address,bytes32)'))
export const AUTHORIZATION_CANCELED = keccak256(toHex('AuthorizationCanceled(address,bytes32)'))
export const TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'))

const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`

interface Payment {
  token: StandinToken
  authorization: Record<string, string>
  signature: string
  requirements: Record<string, unknown>
}

export async function startFacilitatorStandin(options: FacilitatorOptions = {}): Promise<FacilitatorStandin> {
  const { port = 0, host = '127.0.0.1', stallMs = DEFAULT_STALL_MS } = options
  const tokens = options.tokens ?? [LOCAL_TOKEN]
  const balances = new Map<string, bigint>()
  /** Used authorizations: `${chainId}:${token}:${from}:${nonce}` → settlement. */
  const used = new Map<string, Settlement>()
  const settlements: Settlement[] = []
  const mined = new Map<string, MinedTransaction>()
  /** Broadcast, not mined: transaction hash → what mining it does. */
  const mempool = new Map<string, { payer: string; mine: () => void }>()
  const faults = new Map<string, Fault>()
  const stalled = new Map<string, (() => void)[]>()
  let block = 1
  let verifies = 0
  let settles = 0
  const held = new Set<ServerResponse>()

  const tokenOf = (chainId: number, address: string) =>
    tokens.find((t) => t.chainId === chainId && t.address.toLowerCase() === address.toLowerCase())
  const balanceKey = (t: StandinToken, owner: string) =>
    `${t.chainId}:${t.address.toLowerCase()}:${owner.toLowerCase()}`
  const balanceOf = (t: StandinToken, owner: string) =>
    balances.get(balanceKey(t, owner)) ?? 100n * 10n ** BigInt(t.decimals)
  const usedKey = (t: StandinToken, from: string, nonce: string) =>
    `${t.chainId}:${t.address.toLowerCase()}:${from.toLowerCase()}:${nonce.toLowerCase()}`

  const server: Server = createServer(async (req, res) => {
    try {
      await handle(req, res)
    } catch (error) {
      send(res, 500, { error: error instanceof Error ? error.message : 'stand-in failure' })
    }
  })

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin')
    if (req.method === 'GET' && url.pathname === '/__standin/ledger')
      return send(res, 200, { settlements, verifies, settles, stalled: [...stalled.keys()] })
    if (req.method !== 'POST') return send(res, 404, { error: 'not found' })
    const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>
    switch (url.pathname) {
      case '/verify': {
        verifies++
        const checked = await check(body)
        if (!checked.ok)
          return send(res, 200, {
            isValid: false,
            invalidReason: checked.reason,
            invalidMessage: checked.message,
          })
        return send(res, 200, { isValid: true, payer: checked.payment.authorization.from })
      }
      case '/settle':
        settles++
        return settle(body, res)
      case '/rpc':
        return send(res, 200, rpc(body))
      case '/__standin/balance': {
        const t = tokens[0] as StandinToken
        balances.set(balanceKey(t, String(body.address)), BigInt(String(body.amount)))
        return send(res, 200, { ok: true })
      }
      case '/__standin/fault': {
        const address = String(body.address).toLowerCase()
        if (body.fault === null) faults.delete(address)
        else faults.set(address, body.fault as Fault)
        return send(res, 200, { ok: true })
      }
      case '/__standin/mine': {
        const address = String(body.address).toLowerCase()
        for (const [hash, tx] of mempool)
          if (tx.payer === address) {
            mempool.delete(hash)
            tx.mine()
          }
        return send(res, 200, { ok: true })
      }
      case '/__standin/burn':
        return send(
          res,
          200,
          burn(String(body.address), String(body.nonce), body.how === 'self' ? 'self' : 'cancel'),
        )
      case '/__standin/release': {
        const address = String(body.address).toLowerCase()
        for (const release of stalled.get(address) ?? []) release()
        stalled.delete(address)
        return send(res, 200, { ok: true })
      }
    }
    return send(res, 404, { error: 'not found' })
  }

  type Checked = { ok: true; payment: Payment } | { ok: false; reason: string; message: string }

  async function check(body: Record<string, unknown>): Promise<Checked> {
    const refuse = (reason: string, message: string): Checked => ({ ok: false, reason, message })
    const payload = body.paymentPayload as Record<string, unknown> | undefined
    const requirements = body.paymentRequirements as Record<string, unknown> | undefined
    const inner = payload?.payload as Record<string, unknown> | undefined
    const authorization = inner?.authorization as Record<string, string> | undefined
    const signature = inner?.signature
    if (!requirements || !authorization || typeof signature !== 'string')
      return refuse(
        'invalid_payload',
        'paymentPayload.payload.{authorization, signature} and paymentRequirements are required',
      )
    if (requirements.scheme !== 'exact')
      return refuse('unsupported_scheme', 'only the exact scheme is settled here')
    const chainId = Number(String(requirements.network).replace(/^eip155:/, ''))
    const token = tokenOf(chainId, String(requirements.asset))
    if (!token)
      return refuse(
        'invalid_network',
        `no token ${String(requirements.asset)} on ${String(requirements.network)}`,
      )
    // FiatTokenV2's ECRecover accepts only v = 27 or 28.
    const v = Number.parseInt(signature.slice(-2), 16)
    if (signature.length !== 132 || (v !== 27 && v !== 28))
      return refuse('invalid_exact_evm_payload_signature', "ECRecover: invalid signature 'v' value")
    let signer: string
    try {
      signer = await recoverTypedDataAddress({
        domain: {
          name: token.name,
          version: token.version,
          chainId,
          verifyingContract: token.address as Hex,
        },
        types: TYPES,
        primaryType: 'TransferWithAuthorization',
        message: {
          from: authorization.from as Hex,
          to: authorization.to as Hex,
          value: BigInt(authorization.value ?? ''),
          validAfter: BigInt(authorization.validAfter ?? ''),
          validBefore: BigInt(authorization.validBefore ?? ''),
          nonce: authorization.nonce as Hex,
        },
        signature: signature as Hex,
      })
    } catch {
      return refuse('invalid_exact_evm_payload_signature', 'the signature or the authorization is malformed')
    }
    const from = String(authorization.from)
    if (signer.toLowerCase() !== from.toLowerCase())
      return refuse(
        'invalid_exact_evm_payload_signature',
        "the signature is not the payer's under the token's domain",
      )
    if (String(authorization.to).toLowerCase() !== String(requirements.payTo).toLowerCase())
      return refuse('invalid_exact_evm_payload_recipient_mismatch', 'the authorization pays someone else')
    if (String(authorization.value) !== String(requirements.amount))
      return refuse(
        'invalid_exact_evm_payload_authorization_value',
        'the authorization is for another amount',
      )
    const now = BigInt(Math.floor(Date.now() / 1000))
    if (BigInt(authorization.validAfter ?? '0') >= now)
      return refuse(
        'invalid_exact_evm_payload_authorization_valid_after',
        'the authorization is not valid yet',
      )
    if (BigInt(authorization.validBefore ?? '0') <= now)
      return refuse('invalid_exact_evm_payload_authorization_valid_before', 'the authorization has expired')
    if (used.has(usedKey(token, from, String(authorization.nonce))))
      return refuse(
        'invalid_exact_evm_payload_authorization_nonce_used',
        'FiatTokenV2: authorization is used or canceled',
      )
    if (balanceOf(token, from) < BigInt(String(authorization.value)))
      return refuse('insufficient_funds', 'the payer holds less than the authorization moves')
    return { ok: true, payment: { token, authorization, signature, requirements } }
  }

  async function settle(body: Record<string, unknown>, res: ServerResponse) {
    const payload = body.paymentPayload as { payload?: { authorization?: { from?: string } } } | undefined
    const payer = String(payload?.payload?.authorization?.from ?? '').toLowerCase()
    const fault = faults.get(payer)
    if (fault === 'fail') return send(res, 503, { error: 'facilitator unavailable' })
    if (fault === 'silent') return drop(res)
    if (fault === 'fake')
      return send(res, 200, {
        success: true,
        transaction: keccak256(toHex(`made up ${Math.random()}`)),
        network: String((body.paymentRequirements as Record<string, unknown> | undefined)?.network ?? ''),
        payer,
      })
    if (fault === 'stall') {
      held.add(res)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, stallMs)
        const list = stalled.get(payer) ?? []
        list.push(() => {
          clearTimeout(timer)
          resolve()
        })
        stalled.set(payer, list)
      })
      held.delete(res)
    }
    // Checked again at settlement, as the contract checks at execution.
    const checked = await check(body)
    if (!checked.ok)
      return send(res, 200, {
        success: false,
        errorReason: checked.reason,
        errorMessage: checked.message,
        transaction: '',
        network: String((body.paymentRequirements as Record<string, unknown> | undefined)?.network ?? ''),
      })
    const { token, authorization } = checked.payment
    const from = String(authorization.from)
    const to = String(authorization.to)
    const value = BigInt(String(authorization.value))
    const nonce = String(authorization.nonce)
    const hash = keccak256(toHex(`standin:${usedKey(token, from, nonce)}`))
    const network = `eip155:${token.chainId}`
    const execute = () => {
      if (used.has(usedKey(token, from, nonce)) || balanceOf(token, from) < value) return undefined
      balances.set(balanceKey(token, from), balanceOf(token, from) - value)
      balances.set(balanceKey(token, to), balanceOf(token, to) + value)
      const settlement: Settlement = {
        transaction: hash,
        network,
        token: token.address,
        from,
        to,
        value: value.toString(),
        nonce,
        block: mine(hash, [
          [token.address, [AUTHORIZATION_USED, word(BigInt(from)), nonce], '0x'],
          [token.address, [TRANSFER, word(BigInt(from)), word(BigInt(to))], word(value)],
        ]),
      }
      used.set(usedKey(token, from, nonce), settlement)
      settlements.push(settlement)
      return settlement
    }
    if (fault === 'pending') {
      // Broadcast, not mined: the reference facilitator answers so when its wait for the receipt fails.
      if (!mempool.has(hash)) mempool.set(hash, { payer, mine: execute })
      return send(res, 200, {
        success: false,
        errorReason: 'settlement_pending',
        transaction: hash,
        network,
        payer: from,
      })
    }
    const settlement = execute()
    if (!settlement)
      return send(res, 200, {
        success: false,
        errorReason: 'invalid_exact_evm_payload_authorization_nonce_used',
        errorMessage: 'FiatTokenV2: authorization is used or canceled',
        transaction: '',
        network,
      })
    if (fault === 'lost') return drop(res)
    return send(res, 200, {
      success: true,
      transaction: settlement.transaction,
      network: settlement.network,
      payer: from,
      amount: settlement.value,
    })
  }

  /** Mines one transaction with its logs (address, topics, data); returns its block. */
  function mine(hash: string, logs: [string, string[], string][]): number {
    block++
    mined.set(hash, {
      hash,
      block,
      logs: logs.map(([address, topics, data], i) => ({
        address,
        topics,
        data,
        blockNumber: `0x${block.toString(16)}`,
        transactionHash: hash,
        logIndex: `0x${i.toString(16)}`,
        removed: false,
      })),
    })
    return block
  }

  /** Uses a payer's nonce without paying anyone: what the holder of the payer's key can always do. */
  function burn(from: string, nonce: string, how: 'cancel' | 'self') {
    const token = tokens[0] as StandinToken
    if (used.has(usedKey(token, from, nonce)))
      return { ok: false, error: 'authorization is used or canceled' }
    const hash = keccak256(toHex(`burn:${how}:${usedKey(token, from, nonce)}`))
    const logs: [string, string[], string][] =
      how === 'cancel'
        ? [[token.address, [AUTHORIZATION_CANCELED, word(BigInt(from)), nonce], '0x']]
        : [
            [token.address, [AUTHORIZATION_USED, word(BigInt(from)), nonce], '0x'],
            [token.address, [TRANSFER, word(BigInt(from)), word(BigInt(from))], word(0n)],
          ]
    const at = mine(hash, logs)
    used.set(usedKey(token, from, nonce), {
      transaction: hash,
      network: `eip155:${token.chainId}`,
      token: token.address,
      from,
      to: from,
      value: '0',
      nonce,
      block: at,
    })
    return { ok: true, transaction: hash }
  }

  function rpc(body: Record<string, unknown>) {
    const { id, method } = body
    const params = (body.params ?? []) as unknown[]
    const answer = (result: unknown) => ({ jsonrpc: '2.0', id, result })
    const t0 = tokens[0] as StandinToken
    switch (method) {
      case 'eth_chainId':
        return answer(`0x${t0.chainId.toString(16)}`)
      case 'eth_blockNumber':
        return answer(`0x${block.toString(16)}`)
      case 'eth_call': {
        const call = params[0] as { to?: string; data?: string }
        const token = tokens.find((t) => t.address.toLowerCase() === String(call?.to).toLowerCase())
        const data = String(call?.data ?? '')
        if (!token) return answer('0x')
        if (data.startsWith(AUTHORIZATION_STATE) && data.length === 10 + 128) {
          const from = `0x${data.slice(10 + 24, 10 + 64)}`
          const nonce = `0x${data.slice(10 + 64)}`
          return answer(word(used.has(usedKey(token, from, nonce)) ? 1n : 0n))
        }
        if (data.startsWith(BALANCE_OF) && data.length === 10 + 64)
          return answer(word(balanceOf(token, `0x${data.slice(10 + 24)}`)))
        return { jsonrpc: '2.0', id, error: { code: 3, message: 'execution reverted' } }
      }
      case 'eth_getLogs': {
        const filter = params[0] as { address?: string; topics?: (string | null)[] }
        const wanted = filter?.topics ?? []
        const logs = [...mined.values()]
          .flatMap((tx) => tx.logs)
          .filter(
            (log) =>
              log.address.toLowerCase() === String(filter?.address).toLowerCase() &&
              wanted.every(
                (topic, i) =>
                  !topic ||
                  (log.topics[i] !== undefined && BigInt(topic) === BigInt(log.topics[i] as string)),
              ),
          )
        return answer(logs)
      }
      case 'eth_getTransactionReceipt': {
        // A broadcast transaction not yet mined, or one never sent, has no receipt: null.
        const tx = mined.get(String(params[0]).toLowerCase()) ?? mined.get(String(params[0]))
        if (!tx) return answer(null)
        return answer({
          transactionHash: tx.hash,
          blockNumber: `0x${tx.block.toString(16)}`,
          status: '0x1',
          logs: tx.logs,
        })
      }
    }
    return { jsonrpc: '2.0', id, error: { code: -32601, message: `method ${String(method)} not found` } }
  }

  await new Promise<void>((resolve) => server.listen(port, host, resolve))
  const address = server.address()
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`
  return {
    url,
    rpcUrl: `${url}/rpc`,
    settlements,
    close: async () => {
      for (const list of stalled.values()) for (const release of list) release()
      for (const res of held) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function send(res: ServerResponse, status: number, body: unknown) {
  if (res.destroyed) return
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** The settlement's answer never arrives: the connection goes with nothing written. */
function drop(res: ServerResponse) {
  res.socket?.destroy()
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      data += chunk
    })
    req.on('end', () => resolve(data))
    req.on('error', reject)
  })
}
