/**
 * Issue 43: FORMAT.md names the technologies the trap layer covers, by kind. The table is checked
 * against the files so it can never drift from what is on file.
 */
import { readdir, readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

describe('the list of technologies in FORMAT.md', () => {
  it('behavior: names every technology on file once, under its own kind', async () => {
    const format = await readFile('content/FORMAT.md', 'utf8')
    const section = format.split('### Which technologies, and why')[1]?.split('\n## ')[0] ?? ''
    const listed = new Map<string, string>()
    for (const row of section.matchAll(/^\| ([a-z-]+) +\| ([a-z0-9, -]+?) *\|$/gm)) {
      if (row[1] === 'kind') continue
      for (const t of (row[2] ?? '').split(',').map((x) => x.trim())) {
        expect(listed.has(t), `${t} listed twice`).toBe(false)
        listed.set(t, row[1] ?? '')
      }
    }
    const files = (await readdir('content/traps')).filter((f) => f.endsWith('.yaml'))
    const onFile = new Map<string, string>()
    for (const f of files) {
      const file = parse(await readFile(`content/traps/${f}`, 'utf8')) as { technology: string; kind: string }
      onFile.set(file.technology, file.kind)
    }
    expect(Object.fromEntries([...listed].sort())).toEqual(Object.fromEntries([...onFile].sort()))
  })
})
