/**
 * The paying examples of README and the documents it links (test/support/doc-blocks.ts), run as a
 * new user would: an empty folder, the README's install line (served from the npm cache when it
 * holds the packages, so the run stays offline where it can), then each script exactly as printed,
 * against the running service, through a proxy that records what each one sent: every paid request
 * must carry an Idempotency-Key.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WALLET_CLIENT_CODE, WALLET_CLIENT_INSTALL } from '../../schema/wallet-payment.js'
import { codeBlock } from '../support/doc-blocks.js'
import { type RecordedRequest, type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.js'
import { base, processorLedger } from '../support/service.js'
import { allSettlements } from '../support/wallet.js'

const run = promisify(execFile)
const example = (name: string) => codeBlock(`example: ${name}`)

let project = ''
let proxy: RecordingProxy
const inProject = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  run(cmd, args, {
    cwd: project,
    env: { ...process.env, SERVICE_URL: proxy.url, ...env },
    maxBuffer: 16 * 1024 * 1024,
  })

/** A request that carries a payment credential: HTTP Authorization: Payment, or an MCP tools/call with one in _meta. */
function paidMeta(r: RecordedRequest): Record<string, unknown> | undefined {
  if (/^Payment /.test(r.headers.authorization ?? '')) return {}
  if (r.method !== 'POST' || !r.path.startsWith('/mcp')) return undefined
  const message = JSON.parse(r.body) as { method?: string; params?: { _meta?: Record<string, unknown> } }
  const meta = message.params?._meta
  return message.method === 'tools/call' && meta?.['org.paymentauth/credential'] ? meta : undefined
}

/** Runs an example and returns its output and the key each of its paid requests carried. */
async function runExample(cmd: string, file: string, env: Record<string, string> = {}) {
  const from = proxy.requests.length
  const { stdout } = await inProject(cmd, [file], env)
  const keys = proxy.requests.slice(from).flatMap((r) => {
    const meta = paidMeta(r)
    if (!meta) return []
    return [r.headers['idempotency-key'] ?? (meta['idempotency-key'] as string | undefined)]
  })
  return { stdout, keys }
}

function expectEveryPaidRequestKeyed(keys: (string | undefined)[]) {
  expect(keys.length).toBeGreaterThan(0)
  for (const key of keys) expect(key).toMatch(/^\S+$/)
}

beforeAll(async () => {
  proxy = await startRecordingProxy(base())
  project = await mkdtemp(join(tmpdir(), 'rpi-readme-'))
  const install = example('install')
    .split('\n')
    .map((line) => (line.startsWith('npm i ') ? `${line} --prefer-offline --no-audit --no-fund` : line))
    .join('\n')
  await inProject('sh', ['-ec', install])
  for (const name of [
    'pay.mjs',
    'pay-mcp.mjs',
    'pay-mcp-v2.mjs',
    'pay.sh',
    'save-rules.mjs',
    'pay-wallet.mjs',
    'pay-x402.mjs',
    'pay-mcp-wallet.mjs',
    'mppx-cli.sh',
  ])
    await writeFile(join(project, name), example(name))
})
afterAll(async () => {
  await proxy?.close()
  if (project) await rm(project, { recursive: true, force: true })
})

const lockVersion = async (name: string) =>
  (
    JSON.parse(await readFile('package-lock.json', 'utf8')) as {
      packages: Record<string, { version: string }>
    }
  ).packages[`node_modules/${name}`]?.version

describe('README examples in an empty project', () => {
  it('behavior: the install line pins the versions this project tests against', async () => {
    const pins = [...example('install').matchAll(/(@?[\w/.-]+)@(\d[\w.-]*)/g)]
    expect(pins.map((p) => p[1])).toEqual([
      'mppx',
      'viem',
      '@modelcontextprotocol/sdk',
      '@modelcontextprotocol/client',
      '@x402/fetch',
      '@x402/evm',
    ])
    for (const [, name, version] of pins) expect(version, name).toBe(await lockVersion(name as string))
  })

  it("behavior: llms.txt's wallet client pins the versions this project tests against", async () => {
    const pins = [...WALLET_CLIENT_INSTALL.matchAll(/(@?[\w/.-]+)@(\d[\w.-]*)/g)]
    expect(pins.map((p) => p[1])).toEqual(['mppx', 'viem'])
    for (const [, name, version] of pins) expect(version, name).toBe(await lockVersion(name as string))
  })

  it("behavior: llms.txt's wallet client, copied into a file, pays (with the Base Sepolia asset it names for chain 84532)", async () => {
    // llms.txt says assets.base.USDC for Base (8453) and assets.baseSepolia.USDC for 84532, the
    // local stand-in's chain: the one substitution its own text asks for here.
    const local = WALLET_CLIENT_CODE.replace('assets.base.USDC', 'assets.baseSepolia.USDC')
    expect(local).not.toBe(WALLET_CLIENT_CODE)
    await writeFile(join(project, 'pay-llms.mjs'), local)
    const from = proxy.requests.length
    const { stdout } = await inProject('node', ['pay-llms.mjs', `${proxy.url}/v1/fde-lessons?topic=retry`], {
      WALLET_KEY: generatePrivateKey(),
    })
    expect(stdout).toMatch(/^200 \{"topic":"retry"/)
    const paid = proxy.requests.slice(from).filter((r) => /^Payment /.test(r.headers.authorization ?? ''))
    expect(paid).toHaveLength(1)
    expect(paid[0]?.headers['idempotency-key']).toMatch(/^\S+$/)
  })

  it('behavior: pay.mjs pays over HTTP and prints the answer and the receipt', async () => {
    const { stdout, keys } = await runExample('node', 'pay.mjs')
    expectEveryPaidRequestKeyed(keys)
    expect(stdout).toMatch(/^200 \{"topic":"retry"/)
    const reference = /reference: '([^']+)'/.exec(stdout)?.[1]
    expect(stdout).toMatch(/status: 'success'/)
    expect(Object.values((await processorLedger()).succeeded)).toContain(reference)
  })

  it('behavior: pay-mcp.mjs pays a tool over MCP and prints the answer and the receipt', async () => {
    const { stdout, keys } = await runExample('node', 'pay-mcp.mjs')
    expectEveryPaidRequestKeyed(keys)
    expect(JSON.parse(stdout.split('\n')[0] as string)).toMatchObject({ topic: 'retry' })
    const reference = /reference: '([^']+)'/.exec(stdout)?.[1]
    expect(Object.values((await processorLedger()).succeeded)).toContain(reference)
  })

  it('behavior: pay-mcp-v2.mjs negotiates 2026-07-28, pays in band and prints the answer and the receipt', async () => {
    const { stdout, keys } = await runExample('node', 'pay-mcp-v2.mjs')
    expectEveryPaidRequestKeyed(keys)
    const [version, ...answer] = (stdout.split('\n')[0] as string).split(' ')
    expect(version).toBe('2026-07-28')
    expect(JSON.parse(answer.join(' '))).toMatchObject({ topic: 'retry' })
    const reference = /reference: '([^']+)'/.exec(stdout)?.[1]
    expect(Object.values((await processorLedger()).succeeded)).toContain(reference)
  })

  it('behavior: pay.sh builds the credential with standard tools and gets the answer and the receipt', async () => {
    const { stdout, keys } = await runExample('sh', 'pay.sh')
    expectEveryPaidRequestKeyed(keys)
    const [answer, receipt] = stdout.trim().split('\n')
    expect(JSON.parse(answer as string)).toMatchObject({ topic: 'retry' })
    const parsed = JSON.parse(receipt as string) as { status: string; reference: string }
    expect(parsed.status).toBe('success')
    expect(Object.values((await processorLedger()).succeeded)).toContain(parsed.reference)
  })

  it('behavior: pay-wallet.mjs pays with a fresh key through mppx evm: 200, an evm receipt, one settlement', async () => {
    const { stdout, keys } = await runExample('node', 'pay-wallet.mjs')
    expectEveryPaidRequestKeyed(keys)
    expect(stdout).toMatch(/^200 \{"topic":"retry"/)
    expect(stdout).toMatch(/method: 'evm'/)
    const reference = /reference: '([^']+)'/.exec(stdout)?.[1]
    expect(await allSettlements()).toContain(reference)
  })

  it('behavior: pay-wallet.mjs pays on localhost too: the token follows the chain the 402 names, not the host', async () => {
    const onLocalhost = new URL(proxy.url)
    expect(onLocalhost.hostname).toBe('127.0.0.1')
    onLocalhost.hostname = 'localhost'
    const { stdout, keys } = await runExample('node', 'pay-wallet.mjs', {
      SERVICE_URL: onLocalhost.origin,
    })
    expectEveryPaidRequestKeyed(keys)
    expect(stdout).toMatch(/^200 \{"topic":"retry"/)
    const reference = /reference: '([^']+)'/.exec(stdout)?.[1]
    expect(await allSettlements()).toContain(reference)
  })

  it('behavior: pay-mcp-wallet.mjs pays a tool over MCP with a fresh key: an evm receipt, one settlement', async () => {
    const { stdout, keys } = await runExample('node', 'pay-mcp-wallet.mjs')
    expectEveryPaidRequestKeyed(keys)
    expect(JSON.parse(stdout.split('\n')[0] as string)).toMatchObject({ topic: 'retry' })
    expect(stdout).toMatch(/method: 'evm'/)
    const reference = /reference: '([^']+)'/.exec(stdout)?.[1]
    expect(await allSettlements()).toContain(reference)
  })

  it('behavior: mppx-cli.sh pays from the command line with a wallet key on the x402 wire: one new settlement', async () => {
    const before = await allSettlements()
    // The CLI sends its paid retry to the resource URL the offer names (the service itself), so
    // the payment is counted at the chain, not at the recording proxy.
    const { stdout } = await inProject('sh', ['mppx-cli.sh'], { WALLET_KEY: generatePrivateKey() })
    expect(JSON.parse(stdout)).toMatchObject({ topic: 'retry' })
    const after = await allSettlements()
    expect(after.filter((tx) => !before.includes(tx))).toHaveLength(1)
  })

  it('behavior: pay-x402.mjs pays with a fresh key through @x402/fetch and prints the settlement', async () => {
    const { stdout, keys } = await runExample('node', 'pay-x402.mjs')
    // x402 has no Idempotency-Key of its own; the example sends one with its paid retry.
    const paid = proxy.requests.filter((r) => r.headers['payment-signature'])
    expect(paid.at(-1)?.headers['idempotency-key']).toMatch(/^\S+$/)
    expect(keys).toEqual([])
    expect(stdout).toMatch(/^200 \{"topic":"retry"/)
    const transaction = /transaction: '([^']+)'/.exec(stdout)?.[1]
    expect(await allSettlements()).toContain(transaction)
  })

  it('behavior: save-rules.mjs saves the standing AGENTS.md and one change as a skill where Claude Code and Codex load it', async () => {
    const { stdout, keys } = await runExample('node', 'save-rules.mjs')
    expectEveryPaidRequestKeyed(keys)
    const [agents, claudePath, codexPath] = stdout.trim().split(' ')
    const agentsMd = await readFile(join(project, agents as string), 'utf8')
    // Standing: the foundational rules and how to ask, nothing bound to one situation.
    expect(agentsMd).toMatch(/^# Standing instructions for production changes$/m)
    expect(agentsMd).not.toMatch(/^Situation:/m)
    const skill = await readFile(join(project, claudePath as string), 'utf8')
    const name = /^name: (.+)$/m.exec(skill)?.[1]
    expect(claudePath).toBe(`.claude/skills/${name}/SKILL.md`)
    expect(codexPath).toBe(`.agents/skills/${name}/SKILL.md`)
    expect(await readFile(join(project, codexPath as string), 'utf8')).toBe(skill)
    expect(skill.startsWith('---\nname: ')).toBe(true)
    expect(skill).toMatch(/^# Pre-ship gates and rules for deploy$/m)
    expect(skill).toMatch(/^- \[ \] `[a-z0-9-]+` \((block|advice|defer)\): /m)
    expect(skill).toMatch(/For this one task only/)
  })
})
