/**
 * Isolation: a second service (as another test run or `npm start` would make) builds and serves
 * beside the running one, and afterwards the running one still serves its own address and every
 * one of its static files.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { SEALED_ASSET_DIR } from '../../schema/sealing.js'
import { freePort, startService } from '../../scripts/local/service.js'
import { base, get } from '../support/service.js'

describe('two services side by side', () => {
  it('behavior: another service built and run beside this one changes nothing this one serves', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'rpi-beside-'))
    const other = await startService({ port: await freePort(), stateDir })
    try {
      expect(await (await fetch(`${other.url}/llms.txt`)).text()).toContain(other.url)
    } finally {
      await other.stop()
      await rm(stateDir, { recursive: true, force: true })
    }
    const ours = base()
    for (const path of ['/llms.txt', '/openapi.json', '/.well-known/mcp.json']) {
      const text = await (await get(path)).text()
      expect(text, path).toContain(ours)
      expect(text, path).not.toContain(other.url)
    }
    const files = (
      await readdir(join(inject('stateDir'), 'public'), { recursive: true, withFileTypes: true })
    )
      .filter((f) => f.isFile() && !f.name.startsWith('_'))
      .map((f) => `${f.parentPath}/${f.name}`.slice(join(inject('stateDir'), 'public').length))
    // The sealed bundles are read by the Worker, never served (no-paid-bytes.test.ts).
    const served = files.filter((f) => !f.startsWith(SEALED_ASSET_DIR))
    expect(served.length).toBeGreaterThan(5)
    expect(served.length).toBeLessThan(files.length)
    for (const file of served) {
      const path = file.endsWith('/index.html') ? file.slice(0, -'index.html'.length) : file
      expect((await get(path)).status, path).toBe(200)
    }
    // The Worker still opens its sealed bundles: a paid route challenges instead of failing to read.
    expect((await get('/v1/fde-lessons')).status).toBe(402)
  })
})
