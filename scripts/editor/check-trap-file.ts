/**
 * Checks trap files against the format before a build: `npx tsx scripts/editor/check-trap-file.ts
 * content/traps/kafka.yaml …`. Prints each problem by file and field; exits 1 when any file fails.
 * The build checks the same and more (ids unique across files, every trap reachable).
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { TrapFile } from '../../schema/traps.js'

let failed = false
for (const file of process.argv.slice(2)) {
  const read = TrapFile.safeParse(parse(readFileSync(file, 'utf8')))
  if (read.success) {
    console.log(`${file}: ok, ${read.data.traps.length} traps`)
    continue
  }
  failed = true
  for (const issue of read.error.issues) console.log(`${file}: ${issue.path.join('.')}: ${issue.message}`)
}
process.exit(failed ? 1 : 0)
