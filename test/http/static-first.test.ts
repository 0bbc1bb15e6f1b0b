/**
 * Static first: the free, fixed files are served by the asset store without running the Worker, and
 * the Worker runs only for paths that need code. Which paths are static is derived from the build:
 * a route whose path is a file in the public folder.
 */
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { unstable_readConfig } from 'wrangler'
import { ROUTES } from '../../schema/routes.js'
import { get, publicDir } from '../support/service.js'

const runWorkerFirst = (() => {
  const rules = unstable_readConfig({ config: 'gateway/wrangler.jsonc' }).assets?.run_worker_first
  if (!Array.isArray(rules)) throw new Error('run_worker_first must list paths, not run the Worker for all')
  return rules
})()

/** The asset-routing match: a rule ending in /* covers its prefix, any other rule one exact path. */
const runsWorker = (path: string) =>
  runWorkerFirst.some((rule) => (rule.endsWith('/*') ? path.startsWith(rule.slice(0, -1)) : path === rule))

const servedAsFile = (path: string) =>
  statSync(join(publicDir(), path), { throwIfNoEntry: false })?.isFile() === true
const staticRoutes = ROUTES.filter((r) => servedAsFile(r.path))
const dynamicRoutes = ROUTES.filter((r) => !servedAsFile(r.path))

describe('static first', () => {
  it('behavior: the Worker runs for every path that needs code and for no static file', () => {
    expect(staticRoutes.map((r) => r.path)).toContain('/openapi.json')
    expect(dynamicRoutes.map((r) => r.path)).toContain('/mcp')
    for (const route of dynamicRoutes) expect(runsWorker(route.path), route.path).toBe(true)
    for (const route of staticRoutes) expect(runsWorker(route.path), route.path).toBe(false)
    for (const page of ['/pricing/', '/', '/index.html']) expect(runsWorker(page), page).toBe(false)
  })

  it('behavior: static files carry CORS and cache headers from _headers', async () => {
    for (const route of staticRoutes) {
      const r = await get(route.path)
      expect(r.status, route.path).toBe(200)
      expect(r.headers.get('access-control-allow-origin'), route.path).toBe('*')
      expect(r.headers.get('cache-control'), route.path).toBe('public, max-age=300')
    }
    expect((await get('/llms.txt')).headers.get('content-type')).toBe('text/plain; charset=utf-8')
  })

  it('error: another method on a static file is 405 naming GET and HEAD, never 5xx', async () => {
    for (const route of staticRoutes)
      for (const method of ['DELETE', 'PUT', 'POST', 'PATCH']) {
        const r = await get(route.path, { method })
        expect(r.status, `${method} ${route.path}`).toBe(405)
        expect(r.headers.get('allow'), `${method} ${route.path}`).toBe('GET, HEAD')
      }
  })

  it('error: a path with no file still reaches the Worker and gets a 404 problem', async () => {
    const r = await get('/no-such-file.json')
    expect(r.status).toBe(404)
    expect(r.headers.get('content-type')).toBe('application/problem+json')
  })
})
