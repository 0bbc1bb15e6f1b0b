/**
 * The payment folder's structure (#45 item 3): no circle of imports, and each payment method a
 * plug-in. The core (every module outside a method's folder) reaches a method only through the one
 * registry of methods (but for the few places listed at the end), and no method reaches into another.
 */
import { describe, expect, it } from 'vitest'
import { findCycle, type ImportGraph, importGraph, specifiers } from '../support/module-imports.js'

const PAYMENT = 'gateway/payment'
/** The folders of the payment methods, each a plug-in. */
const METHODS = ['stripe/', 'evm/']
/** The one core module that knows the methods. */
const REGISTRY = 'methods.ts'

const methodOf = (path: string) => METHODS.find((m) => path.startsWith(m))

describe('the import reader', () => {
  it('reads imports of every form, types and re-exports included, and skips comments', () => {
    const source = [
      "import { a } from './a.js'",
      "import type { B } from '../b.js'",
      'import {',
      '  c,',
      '  type D,',
      "} from './c.js'",
      "export type { E } from './e.js'",
      "import './side-effect.js'",
      "const lazy = () => import('./lazy.js')",
      "// import { x } from './commented.js'",
      "/* import { y } from './also-commented.js' */",
      "const text = 'not an import'",
    ].join('\n')
    expect(specifiers(source)).toEqual([
      './a.js',
      '../b.js',
      './c.js',
      './e.js',
      './side-effect.js',
      './lazy.js',
    ])
  })

  it('finds a circle and names it, and finds none where there is none', () => {
    const graph: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(findCycle(graph)).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts'])
    graph.set('c.ts', [])
    expect(findCycle(graph)).toBeUndefined()
  })
})

describe(`${PAYMENT}`, () => {
  const graph = importGraph(PAYMENT)

  it('reads the folder (the core, both methods and the registry)', () => {
    expect(graph.has('challenge.ts')).toBe(true)
    expect(graph.has(REGISTRY)).toBe(true)
    for (const method of METHODS) expect([...graph.keys()].some((p) => p.startsWith(method))).toBe(true)
  })

  it('has no circle of imports', () => {
    const cycle = findCycle(graph)
    expect(cycle, cycle && `import circle: ${cycle.join(' → ')}`).toBeUndefined()
  })

  it('keeps the core free of any method but through the registry, and each method out of the others', () => {
    const crossings: string[] = []
    for (const [from, targets] of graph) {
      const own = methodOf(from)
      for (const to of targets) {
        const target = methodOf(to)
        if (target === undefined || target === own) continue
        if (own === undefined && from === REGISTRY) continue
        crossings.push(`${from} → ${to}`)
      }
    }
    expect(crossings.filter((c) => !STILL_DIRECT.includes(c))).toEqual([])
    // The list only shrinks: a crossing taken away is taken off it too.
    expect(STILL_DIRECT.filter((c) => !crossings.includes(c))).toEqual([])
  })
})

/**
 * Where the core still reaches a method directly, and why; nothing may be added. The ledger object
 * hosts the wallet's day books and the card reconciler's refunds and cursor as Durable Object
 * methods (moving them out needs an object class of their own), its record keeps a wallet's note,
 * and the HTTP face reads and writes the x402 wires' headers itself.
 */
const STILL_DIRECT = [
  'http.ts → evm/offer.ts',
  'http.ts → evm/request.ts',
  'http.ts → evm/x402-discovery.ts',
  'http.ts → evm/x402-v1.ts',
  'http.ts → evm/x402-wire.ts',
  'ledger.ts → evm/owed.ts',
  'ledger.ts → evm/wallet-book.ts',
  'ledger.ts → stripe/orphans.ts',
  'ledger.ts → stripe/processor.ts',
  'ledger.ts → stripe/reconciler.ts',
  'retention.ts → evm/wallet-book.ts',
]
