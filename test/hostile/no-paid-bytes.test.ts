/**
 * Hostile: no path, encoding trick, method, header or credential string gets a paid bundle's
 * bytes without a settled payment, and nothing answers 5xx. Bounded in count, local only.
 */

import { readdir, readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import type {
  BundleManifest,
  ChecklistBundle,
  PlaybooksBundle,
  PricingBundle,
  RulesBundle,
} from '../../schema/datasets.js'
import { ROUTES } from '../../schema/routes.js'
import { SEALED_ASSET_DIR } from '../../schema/sealing.js'
import { TECHNOLOGIES_MAX } from '../../schema/technologies.js'
import type { TrapsBundle } from '../../schema/traps.js'
import { base } from '../support/service.js'

const manifest = JSON.parse(await readFile('dist/private/manifest.json', 'utf8')) as BundleManifest
const bundle = async <T>(name: keyof BundleManifest['bundles']) =>
  JSON.parse(await readFile(`dist/${manifest.bundles[name].file}`, 'utf8')) as T

/** Strings that exist only inside paid bundles: seeing one in an unpaid answer is a leak. */
const canaries = [
  ...(await bundle<RulesBundle>('lessons')).rules.map((r) => r.constraint.check),
  ...(await bundle<PlaybooksBundle>('playbooks')).playbooks.map((p) => p.steps[0]?.done_when as string),
  ...(await bundle<ChecklistBundle>('checklist')).checklist.map((g) => g.check),
  JSON.stringify((await bundle<PricingBundle>('pricing')).comparables),
  // A trap's probe and safe path are sold; its one-line trap is free on the preview.
  ...(await bundle<TrapsBundle>('traps')).technologies.flatMap((t) =>
    t.traps.flatMap((trap) => [trap.probe, trap.safe_path]),
  ),
].map((text) => JSON.stringify(text).slice(1, 41)) // the first 40 characters as they appear in JSON

const privateFiles = (await readdir('dist/private')).filter((f) => f.endsWith('.json'))
// The running service's own public files (it serves a copy naming its address).
const publicFiles = (await readdir(join(inject('stateDir'), 'public'), { recursive: true })).map(String)
const paidPaths = ROUTES.filter((r) => r.access === 'paid').map((r) => r.path)

/**
 * Path spellings that a careless router or asset server might map onto a paid answer. All stay
 * in origin form (a leading slash): wrangler's local proxy answers a bare 500 to anything else,
 * before the Worker runs, where the production edge answers 400.
 */
function variants(path: string): string[] {
  const trimmed = path.replace(/^\//, '')
  return [
    path,
    `${path}/`,
    `/${path}`,
    path.toUpperCase(),
    `/${trimmed.replace(/\//g, '%2F')}`,
    path.replace(/e/, '%65'),
    path.replace('/v1/', '/v1//'),
    path.replace('/v1/', '/v1/./'),
    `/x/..${path}`,
    `/x/%2e%2e${path}`,
    `${path}.json`,
    `${path};a=b`,
    `${path}%00`,
    `${path}?__proto__[x]=1`,
    `/private/${trimmed}`,
  ]
}

const targets = [
  ...paidPaths.flatMap(variants),
  ...privateFiles.flatMap((f) => [
    `/${f}`,
    `/private/${f}`,
    `/dist/private/${f}`,
    `/data/${f}`,
    `/../private/${f}`,
    `/%2e%2e/private/${f}`,
  ]),
  ...publicFiles.map((f) => `/${f}`),
  '/private/bundles.js',
  '/private/manifest.json',
  '/bundles.js',
]

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']
const FAKE_AUTH: Record<string, string>[] = [
  {},
  { authorization: 'Payment' },
  { authorization: 'Bearer paid' },
  { 'payment-authorization': 'Payment e30' },
  {
    authorization: `Payment ${Buffer.from(JSON.stringify({ challenge: {}, payload: { spt: 'spt_test_x' } })).toString('base64url')}`,
  },
  { 'x-forwarded-for': '127.0.0.1', 'x-original-url': '/v1/fde-lessons', 'x-rewrite-url': '/v1/fde-lessons' },
]

/** Sends the path exactly as written (fetch would normalise `..` and `%2e` away). */
function probe(
  path: string,
  init: { method?: string; body?: string; headers?: Record<string, string> },
): Promise<{ status: number; text: string; location?: string }> {
  const { hostname, port } = new URL(base())
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method: init.method ?? 'GET', headers: init.headers },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, location: res.headers.location }))
      },
    )
    req.on('error', reject)
    req.end(init.body)
  })
}

function assertNoLeak(label: string, status: number, text: string) {
  expect(status, label).toBeLessThan(500)
  for (const canary of canaries) expect(text.includes(canary), `${label} leaked paid bytes`).toBe(false)
}

describe('no paid byte without a settled payment', () => {
  it('behavior: the canaries really are in the paid bundles', async () => {
    expect(canaries.length).toBeGreaterThan(50)
    const paid = await readFile(`dist/${manifest.bundles.lessons.file}`, 'utf8')
    expect(paid.includes(canaries[0] as string)).toBe(true)
  })

  it('behavior: the free preview asked with every covered technology names their traps but leaks no probe or safe path', async () => {
    const traps = await bundle<TrapsBundle>('traps')
    const all = traps.technologies.map((t) => t.technology)
    // As many names as one call takes, call after call, until every covered technology was asked.
    for (let i = 0; i < all.length; i += TECHNOLOGIES_MAX) {
      const chunk = all.slice(i, i + TECHNOLOGIES_MAX)
      const first = traps.technologies.find((t) => t.technology === chunk[0])?.traps[0]?.id as string
      for (const format of ['json', 'agents-md', 'skill']) {
        const r = await fetch(
          `${base()}/v1/fde-lessons/preview?technologies=${chunk.join(',')}&format=${format}`,
        )
        const text = await r.text()
        expect(r.status, format).toBe(200)
        assertNoLeak(`preview?technologies (${format})`, r.status, text)
        expect(text, format).toContain(first)
      }
    }
  })

  it(`behavior: ${targets.length} paths × ${METHODS.length} methods leak nothing and never 5xx`, async () => {
    for (const path of targets)
      for (const method of METHODS) {
        const { status, text } = await probe(path, {
          method,
          ...(method === 'POST' || method === 'PUT'
            ? { body: '{}', headers: { 'content-type': 'application/json' } }
            : {}),
        })
        assertNoLeak(`${method} ${path}`, status, text)
      }
  })

  it('behavior: the sealed bundles among the assets are never answered, however the path is spelt', async () => {
    const sealedFiles = publicFiles.filter((f) => `/${f}`.startsWith(SEALED_ASSET_DIR))
    expect(sealedFiles.length).toBe(Object.values(manifest.bundles).filter((b) => b.access === 'paid').length)
    for (const file of sealedFiles) {
      const sealed = await readFile(join(inject('stateDir'), 'public', file), 'utf8')
      const name = file.slice(SEALED_ASSET_DIR.length - 1)
      const spellings = [
        `/${file}`,
        `/%73ealed/${name}`,
        `/sealed%2F${name}`,
        `/sealed//${name}`,
        `/x/../${file}`,
        `/x/%2e%2e/${file}`,
        `/SEALED/${name}`,
        `/${file}?download=1`,
        `/${file}/`,
        `/%2573ealed/${name}`,
        `/sealed/${name.replace('.', '%2E')}`,
      ]
      for (const path of spellings)
        for (const method of ['GET', 'HEAD']) {
          const first = await probe(path, { method })
          // The asset router answers an encoded spelling with a redirect to the plain one (seen
          // locally); followed, it must end at the Worker's 404 like the plain path.
          const { status, text } = first.location ? await probe(first.location, { method }) : first
          expect([first.status, status], `${method} ${path}`).toEqual(
            first.location ? [307, 404] : [404, 404],
          )
          expect(`${first.text}${text}`.includes(sealed.slice(0, 64)), `${method} ${path} served it`).toBe(
            false,
          )
        }
    }
  })

  it('behavior: fake and malformed credentials on every paid route leak nothing', async () => {
    for (const path of paidPaths)
      for (const headers of FAKE_AUTH) {
        const { status, text } = await probe(path, { headers })
        assertNoLeak(`${path} ${JSON.stringify(headers)}`, status, text)
        expect(status, path).toBe(402)
      }
  })

  it('behavior: 300 random credential strings are refused without a 5xx', async () => {
    let seed = 42
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ ."{}:,\\'
    const shapes = [
      () =>
        Array.from(
          { length: Math.floor(random() * 300) },
          () => alphabet[Math.floor(random() * alphabet.length)],
        ).join(''),
      () =>
        Buffer.from(
          JSON.stringify({
            challenge: { id: 'x', realm: 'r', method: 'stripe', intent: 'charge', request: {} },
            payload: { spt: `spt_${random()}` },
          }),
        ).toString('base64url'),
      () =>
        Buffer.from(JSON.stringify({ challenge: random() > 0.5 ? [] : 'x', payload: null })).toString(
          'base64url',
        ),
      () => Buffer.from(Array.from({ length: 64 }, () => Math.floor(random() * 256))).toString('base64url'),
    ]
    for (let i = 0; i < 300; i++) {
      const credential = shapes[i % shapes.length]?.() as string
      const path = paidPaths[i % paidPaths.length] as string
      const response = await fetch(`${base()}${path}`, {
        headers: { authorization: `Payment ${credential}` },
      }).catch(
        () => null, // a header the client itself refuses to send is not a server answer
      )
      if (!response) continue
      const text = await response.text()
      assertNoLeak(`credential #${i}`, response.status, text)
      expect([400, 402]).toContain(response.status)
    }
  })

  it('behavior: hostile MCP messages leak nothing and never 5xx', async () => {
    const bodies = [
      '',
      'not json',
      '[]',
      '{"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fde_lessons_full"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fde_lessons_full","arguments":{"topic":"retry"},"_meta":{"org.paymentauth/credential":{"challenge":{},"payload":{"spt":"spt_test_x"}}}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fde_lessons_full","arguments":{"topic":["retry"]}}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"fde_playbook","arguments":null,"_meta":{"org.paymentauth/credential":"x"}}}',
      '{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///dist/private/manifest.json"}}',
      `[${Array.from({ length: 20 }, (_, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":"fde_preship_checklist","arguments":{}}}`).join(',')}]`,
    ]
    for (const body of bodies) {
      const { status, text } = await probe('/mcp', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      })
      assertNoLeak(`MCP ${body.slice(0, 60)}`, status, text)
    }
  })
})
