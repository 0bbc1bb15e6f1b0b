/**
 * llms.txt is read top down, often cut short: the reader who came to buy must meet what is sold and
 * how to ask for it (with the situation) before the money terms, and reordering must lose nothing.
 */
import { describe, expect, it } from 'vitest'
import { build } from '../../build/index.js'
import { LOCAL_URLS } from '../../schema/config.js'
import { MCP_TOOLS } from '../../schema/mcp-tools.js'
import { MONEY_BACK_POLICY } from '../../schema/money-back.js'
import { PAYMENT_TOKEN_HOW_TO } from '../../schema/payment-token.js'
import { RECEIPT_POLICY } from '../../schema/receipt-claims.js'
import { RETRYABLE_POLICY } from '../../schema/retryable.js'
import { ROUTES } from '../../schema/routes.js'
import { versionPolicyText } from '../../schema/version-policy.js'
import { tempDir } from '../support/content-copy.js'

/** A fixed Ed25519 public key (32 bytes, base64), so the registry line is written too. */
const REGISTRY_KEY = 'Gb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE='
const { files } = await build({
  contentDir: 'content',
  outDir: await tempDir(),
  urls: LOCAL_URLS,
  registryPublicKey: REGISTRY_KEY,
})
const text = files.get('public/llms.txt') as string
const at = (needle: string) => {
  const index = text.indexOf(needle)
  expect(index, `llms.txt holds ${needle.slice(0, 60)}`).toBeGreaterThanOrEqual(0)
  return index
}

/** The money terms, each a full text defined once in schema/. */
const MONEY_TERMS = [PAYMENT_TOKEN_HOW_TO, RECEIPT_POLICY, MONEY_BACK_POLICY, RETRYABLE_POLICY]
/** What is sold and how to ask: every paid route and every MCP tool line. */
const SOLD = [
  ...ROUTES.filter((r) => r.access === 'paid').map((r) => `- [GET ${r.path}](`),
  ...MCP_TOOLS.map((t) => `- [${t.name}](`),
]

describe('llms.txt order', () => {
  it('behavior: every section and labelled paragraph of the earlier layout is still there, once', () => {
    const sections = ['## Ask with your situation', '## Free', '## Paid', '## MCP tools', '## MCP resources']
    const labels = ['Inventory: ', 'Paying: ', 'Payment token: ', 'Receipts: ', 'Your money: ', 'Refusals: ']
    for (const marker of [...sections, '## Optional', ...labels, 'Versions and deprecation: '])
      expect(text.split(marker).length - 1, marker).toBe(1)
    for (const term of [...MONEY_TERMS, versionPolicyText()]) expect(text.split(term).length - 1).toBe(1)
    expect(text).toContain('MCP Registry: listed as ')
    for (const route of ROUTES)
      expect(text).toContain(route.access === 'retired' ? route.path : `${LOCAL_URLS.base_url}${route.path}`)
  })

  it('behavior: what is sold and how to ask with a situation come before any money term', () => {
    const firstMoney = Math.min(...MONEY_TERMS.map(at), at('Paying: '))
    expect(at('Inventory: ')).toBeLessThan(firstMoney)
    expect(at('## Ask with your situation')).toBeLessThan(firstMoney)
    expect(at('/v1/fde-preship-checklist?action=deploy')).toBeLessThan(firstMoney)
    for (const line of SOLD) expect(at(line), line).toBeLessThan(firstMoney)
    // Nothing before the situation section is payment small print: only the title, the
    // description, the inventory and the one-line price.
    const head = text.slice(0, at('## Ask with your situation'))
    for (const term of MONEY_TERMS) expect(head).not.toContain(term)
    expect(head).toMatch(/Price: 0\.50 USD per paid call/)
    const headLines = head.split('\n').filter((line) => line.trim())
    expect(headLines.map((line) => /^(# |> |Inventory: |Price: )/.exec(line)?.[1])).toEqual([
      '# ',
      '> ',
      'Inventory: ',
      'Price: ',
    ])
  })

  it('behavior: the money terms come before the version policy, and Optional stays last', () => {
    const lastMoney = Math.max(...MONEY_TERMS.map(at))
    expect(lastMoney).toBeLessThan(at('Versions and deprecation: '))
    const headings = text.split('\n').filter((l) => l.startsWith('## '))
    expect(headings.at(-1)).toBe('## Optional')
    expect(headings.indexOf('## Paying')).toBeGreaterThan(headings.indexOf('## MCP resources'))
  })
})
