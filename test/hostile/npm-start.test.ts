/**
 * `npm start` as a user runs it: it serves, it leaves no process behind when it is stopped by
 * SIGTERM to its process group or by SIGINT to npm alone, and it exits non-zero, saying so, when
 * the Workers runtime dies under it. Each run has its own port and state directory.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, onTestFailed } from 'vitest'
import { freePort } from '../../scripts/local/service.js'

interface Started {
  child: ChildProcess
  url: string
  output: () => string
  exited: Promise<number | null>
}

const stateDirs: string[] = []
afterEach(async () => {
  for (const dir of stateDirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

/** Every process whose process group is `pgid`, with its command name. */
function groupMembers(pgid: number): { pid: number; comm: string }[] {
  return execFileSync('ps', ['-eo', 'pid=,pgid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, group]) => Number(group) === pgid)
    .map(([pid, , comm]) => ({ pid: Number(pid), comm: comm ?? '' }))
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Starts `npm start` in a process group of its own and waits until it says it serves: that line
 * comes after its start is done (migrations applied), which an answering port alone does not mean.
 */
async function npmStart(): Promise<Started> {
  // A free port is only free when probed: on a busy machine another test's server or connection can
  // take it before npm start binds it. That start fails saying so, and a fresh port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await npmStartOnce()
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !String(error).includes('Address already in use')) throw error
    }
  }
}

/** How many starts in all, each on a fresh port, when the port was taken between its probe and its bind. */
const PORT_ATTEMPTS = 3

async function npmStartOnce(): Promise<Started> {
  const port = await freePort()
  const stateDir = await mkdtemp(join(tmpdir(), 'rpi-npm-start-'))
  stateDirs.push(stateDir)
  const child = spawn('npm', ['start'], {
    env: { ...process.env, PORT: String(port), STATE_DIR: stateDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout?.on('data', (d) => (output += d))
  child.stderr?.on('data', (d) => (output += d))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  // A stop that never ends fails by the test's own time limit, however busy the machine; what npm
  // start printed is shown then, as with any other failure.
  onTestFailed(() => console.error(`npm start printed:\n${output}`))
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`)
    if (output.includes(`Serving on ${url}`)) break
    await new Promise((r) => setTimeout(r, 100))
  }
  return { child, url, output: () => output, exited }
}

/** Waits until none of `pids` is alive (the test's own time limit bounds the wait). */
async function allGone(pids: number[]) {
  while (pids.some(alive)) await new Promise((r) => setTimeout(r, 50))
  expect(pids.filter(alive)).toEqual([])
}

describe('npm start', () => {
  it('behavior: SIGTERM to its process group stops every process it started, workerd included', async () => {
    const started = await npmStart()
    expect((await fetch(`${started.url}/v1/catalogue`)).status).toBe(200)
    const members = groupMembers(started.child.pid as number)
    expect(members.map((m) => m.comm)).toContain('workerd')
    process.kill(-(started.child.pid as number), 'SIGTERM')
    await started.exited
    await allGone(members.map((m) => m.pid))
    await expect(fetch(`${started.url}/v1/catalogue`)).rejects.toThrow()
  })

  it('behavior: SIGINT to npm alone stops every process it started', async () => {
    const started = await npmStart()
    const members = groupMembers(started.child.pid as number)
    started.child.kill('SIGINT')
    await started.exited
    await allGone(members.map((m) => m.pid))
  })

  it('error: when workerd dies under it, npm start says so and exits non-zero, leaving nothing behind', async () => {
    const started = await npmStart()
    const members = groupMembers(started.child.pid as number)
    const workerd = members.filter((m) => m.comm === 'workerd')
    expect(workerd).toHaveLength(1)
    process.kill((workerd[0] as { pid: number }).pid, 'SIGKILL')
    expect(await started.exited).not.toBe(0)
    expect(started.output()).toMatch(/workerd .* exited unexpectedly/)
    await allGone(members.map((m) => m.pid))
  })
})
