/**
 * The editor's loop as an editor runs it: `npm run dev` on a copy of the content serves a saved
 * edit to a rule without a restart, and a save that breaks the build leaves the last good build
 * served and says why. Waits are conditions polled until they hold, bounded by the test's own time
 * limit (never a count of polls, which is a deadline on a busy machine), never fixed sleeps.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { parse, stringify } from 'yaml'
import { freePort } from '../../scripts/local/service.js'
import { copyOfContent } from '../support/content-copy.js'

const RULE = 'rules/add-capacity-in-steps-and-watch-host-limits.yaml'
let child: ChildProcess
let url: string
let contentDir: string
let stateDir: string
let output = ''

/**
 * Checks `ready` every 100 ms until it holds; fails at once if `npm run dev` exits, and, if the
 * test's time limit comes first, shows what it was waiting for and what npm run dev printed.
 */
async function until(what: string, ready: () => Promise<boolean> | boolean): Promise<void> {
  const report = () => console.error(`waiting for ${what}; npm run dev printed:\n${output.slice(-3000)}`)
  try {
    onTestFailed(report)
  } catch {
    // In beforeAll there is no test to hang the report on; a hook timeout names the hook.
  }
  for (;;) {
    if (await ready()) return
    if (child.exitCode !== null) throw new Error(`npm run dev exited while waiting for ${what}:\n${output}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

const catalogue = async () => {
  try {
    const r = await fetch(`${url}/v1/catalogue`)
    return r.status === 200 ? await r.text() : ''
  } catch {
    return '' // between two runtimes while the new build is swapped in
  }
}

async function editRule(edit: (rule: Record<string, unknown>) => void) {
  const path = join(contentDir, RULE)
  const rule = parse(await readFile(path, 'utf8')) as Record<string, unknown>
  edit(rule)
  await writeFile(path, stringify(rule))
}

beforeAll(async () => {
  contentDir = await copyOfContent()
  stateDir = await mkdtemp(join(tmpdir(), 'rpi-dev-'))
  const port = await freePort()
  url = `http://127.0.0.1:${port}`
  child = spawn('npm', ['run', 'dev'], {
    env: { ...process.env, PORT: String(port), STATE_DIR: stateDir, CONTENT_DIR: contentDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  await until('the first answer', async () => (await catalogue()) !== '')
  await until('the watching line', () => output.includes('Watching'))
})

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r))
    process.kill(-child.pid, 'SIGTERM')
    await exited
  }
  await rm(stateDir, { recursive: true, force: true })
})

describe('npm run dev', () => {
  it('behavior: a saved edit to a rule is served without a restart', async () => {
    const title = `Add fleet capacity in small steps (edited ${process.pid})`
    expect(await catalogue()).not.toContain(title)
    await editRule((rule) => {
      rule.title = title
    })
    await until('the edited title', async () => (await catalogue()).includes(title))
    expect(output).toMatch(/rebuilt after a change to .*add-capacity-in-steps/)
  })

  it('error: a save that breaks the build keeps the last good build served and names the file', async () => {
    const served = await catalogue()
    const path = join(contentDir, RULE)
    const good = await readFile(path, 'utf8')
    const before = output.length
    await writeFile(path, `${good}\nwhy: [unclosed\n`)
    await until('the failed rebuild', () => output.slice(before).includes('not rebuilt'))
    expect(output.slice(before)).toContain('add-capacity-in-steps-and-watch-host-limits.yaml')
    expect(await catalogue()).toBe(served)
    // Saved again, fixed: served again.
    await writeFile(
      path,
      good.replace(/^title: .*$/m, `title: Add fleet capacity in small steps (fixed ${process.pid})`),
    )
    await until('the fixed title', async () => (await catalogue()).includes(`(fixed ${process.pid})`))
  })
})
