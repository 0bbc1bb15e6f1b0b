#!/usr/bin/env node
// Blind A/B pairs for judging rules by what an agent does with them.
//
//   node ab-pairs.mjs blind WITH.md WITHOUT.md OUT.md KEY.json [seed]
//     Reads two plan files whose sections start with "## <id>" (lines "Query: ..." are dropped), and writes OUT.md
//     with "### Plan P" / "### Plan Q" per id in a seeded random order, and KEY.json saying which was which.
//     Keep KEY.json where the grader cannot read it.
//   node ab-pairs.mjs unblind KEY.json GRADES.txt
//     GRADES.txt holds lines "<id> P: <grade>; Q: <grade>" (grades: right, partly, wrong). Prints each id's grade
//     with and without the answer, the totals, and the ids the answer made worse or better.
import { readFileSync, writeFileSync } from 'node:fs'

const RANK = { wrong: 0, partly: 1, right: 2 }

function sections(file) {
  const text = readFileSync(file, 'utf8')
  const out = new Map()
  for (const m of text.matchAll(/^## (\S+)[^\n]*\n([\s\S]*?)(?=^## |(?![\s\S]))/gm))
    out.set(m[1], m[2].replace(/^Query:.*\n/m, '').trim())
  return out
}

// A small seeded generator (mulberry32): the same seed gives the same order.
function random(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function blind([withFile, withoutFile, outFile, keyFile, seed = String(Date.now())]) {
  const w = sections(withFile),
    o = sections(withoutFile)
  const ids = [...w.keys()].filter((id) => o.has(id)).sort()
  const missing = [...w.keys(), ...o.keys()].filter((id) => !(w.has(id) && o.has(id)))
  if (missing.length) console.error(`left out, not in both files: ${[...new Set(missing)].join(', ')}`)
  const next = random(Number(seed) || 1)
  const key = {}
  const parts = ['# Two plans for each change\n']
  for (const id of ids) {
    const pWith = next() < 0.5
    key[id] = pWith ? { P: 'with', Q: 'without' } : { P: 'without', Q: 'with' }
    const [p, q] = pWith ? [w.get(id), o.get(id)] : [o.get(id), w.get(id)]
    parts.push(`## ${id}\n\n### Plan P\n${p}\n\n### Plan Q\n${q}\n`)
  }
  writeFileSync(outFile, parts.join('\n'))
  writeFileSync(keyFile, JSON.stringify(key, null, 2) + '\n')
  console.log(`${ids.length} pairs written to ${outFile}; key in ${keyFile}`)
}

function unblind([keyFile, gradesFile]) {
  const key = JSON.parse(readFileSync(keyFile, 'utf8'))
  const rows = []
  for (const line of readFileSync(gradesFile, 'utf8').split('\n')) {
    const m = line.match(/(\S+)\s+P:\s*(right|partly|wrong)\b.*?Q:\s*(right|partly|wrong)\b/i)
    if (!m || !key[m[1]]) continue
    const g = { P: m[2].toLowerCase(), Q: m[3].toLowerCase() }
    const k = key[m[1]]
    rows.push({ id: m[1], with: k.P === 'with' ? g.P : g.Q, without: k.P === 'with' ? g.Q : g.P })
  }
  const count = (side, grade) => rows.filter((r) => r[side] === grade).length
  for (const r of rows) console.log(`${r.id}\twith: ${r.with}\twithout: ${r.without}`)
  for (const side of ['with', 'without'])
    console.log(
      `${side}: right ${count(side, 'right')}, partly ${count(side, 'partly')}, wrong ${count(side, 'wrong')} of ${rows.length}`,
    )
  console.log(
    `made worse by the answer: ${
      rows
        .filter((r) => RANK[r.with] < RANK[r.without])
        .map((r) => r.id)
        .join(', ') || 'none'
    }`,
  )
  console.log(
    `made better by the answer: ${
      rows
        .filter((r) => RANK[r.with] > RANK[r.without])
        .map((r) => r.id)
        .join(', ') || 'none'
    }`,
  )
}

const [verb, ...args] = process.argv.slice(2)
if (verb === 'blind' && args.length >= 4) blind(args)
else if (verb === 'unblind' && args.length === 2) unblind(args)
else {
  console.error(
    'usage: ab-pairs.mjs blind WITH.md WITHOUT.md OUT.md KEY.json [seed] | unblind KEY.json GRADES.txt',
  )
  process.exit(2)
}
