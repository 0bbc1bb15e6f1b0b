/**
 * Runs Workers locally in workerd through Miniflare's API, configured from their own
 * wrangler.jsonc files (wrangler turns a config into Miniflare options), with no dev proxy in front:
 * Miniflare listens on the port itself. Each Worker is bundled with esbuild from its `main`, as
 * `wrangler deploy` bundles it. Used by the local service, the tests and the benchmark.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { build } from 'esbuild'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type V4WorkerOptions } from 'miniflare'
import { unstable_getMiniflareWorkerOptions, unstable_readConfig, unstable_splitSqlQuery } from 'wrangler'

export interface LocalWorker {
  /** Path of the Worker's wrangler.jsonc. */
  config: string
  /** Var values laid over the config's `vars` (local addresses, secrets, test settings). */
  vars?: Record<string, string>
  /** Another asset directory than the config's (the service serves its own built copy). */
  assetsDirectory?: string
}

export interface LocalWorkersOptions {
  /** The first Worker listens here; the others are reached through its service bindings. */
  workers: LocalWorker[]
  port: number
  host?: string
  /** Where D1 and Durable Object state is kept, and the Worker bundles are written. */
  stateDir: string
  /**
   * The build the gateway bundles (dist/ by default): a service on another content folder builds
   * into a dist of its own, so it never overwrites the one the tests and tools read.
   */
  distDir?: string
  /** Opens the V8 inspector on this port (the benchmark's CPU profile of a paid call). */
  inspectorPort?: number
  verbose?: boolean
  /**
   * workerd exited on its own (Miniflare restarts it; the caller decides what that means). Called
   * when Miniflare reports the crash and again once workerd is back: repeats are the caller's to ignore.
   */
  onRuntimeCrash?: () => void
}

export interface RunningWorkers {
  url: string
  miniflare: Miniflare
  /** Bundles every Worker again and swaps them in, on the same port with the same state. */
  reload(): Promise<void>
  dispose(): Promise<void>
}

const BUILT_MODULE = /(^|\/)dist\/private\/bundles\.js$/

/**
 * Bundles a Worker's entry module into one ES module, as wrangler does for a deploy. The generated
 * module the gateway imports from dist/ is taken from `distDir` when one is given.
 */
async function bundle(main: string, outfile: string, distDir?: string): Promise<void> {
  await build({
    plugins: distDir
      ? [
          {
            name: 'dist-dir',
            setup(b) {
              b.onResolve({ filter: BUILT_MODULE }, () => ({
                path: resolve(distDir, 'private/bundles.js'),
              }))
            },
          },
        ]
      : [],
    entryPoints: [main],
    outfile,
    bundle: true,
    format: 'esm',
    target: 'es2024',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*', 'node:*'],
    sourcemap: 'linked',
    logLevel: 'error',
  })
}

type Config = ReturnType<typeof unstable_readConfig>

async function workerOptions(
  worker: LocalWorker,
  config: Config,
  stateDir: string,
  distDir?: string,
): Promise<V4WorkerOptions> {
  const { workerOptions: options, main } = unstable_getMiniflareWorkerOptions(
    config,
    undefined,
    worker.assetsDirectory ? { overrides: { assets: { directory: resolve(worker.assetsDirectory) } } } : {},
  )
  if (!main) throw new Error(`${worker.config} names no main module`)
  const name = config.name ?? 'worker'
  const outfile = join(resolve(stateDir), 'bundles', `${name}.js`)
  await bundle(main, outfile, distDir)
  // One bundled module: the config's module rules (text, wasm imports) have nothing left to match.
  const { modulesRules: _rules, ...rest } = options
  return {
    ...rest,
    name,
    modules: true,
    scriptPath: outfile,
    // Module names are relative to the bundle's folder, not to the config's.
    rootPath: undefined,
    modulesRoot: dirname(outfile),
    bindings: { ...(options.bindings as Record<string, unknown>), ...worker.vars },
  } as V4WorkerOptions
}

/**
 * Miniflare's log, watched for its report that workerd crashed: that report comes first, before
 * Miniflare restarts workerd and before anything still talking to the old one fails, so the caller
 * hears of the crash while it can still stop cleanly.
 */
class RuntimeLog extends Log {
  constructor(
    level: LogLevel,
    private readonly onCrash: (() => void) | undefined,
  ) {
    super(level)
  }

  override warn(message: string): void {
    super.warn(message)
    if (message.includes('Workers runtime crashed')) this.onCrash?.()
  }
}

export async function startLocalWorkers(options: LocalWorkersOptions): Promise<RunningWorkers> {
  const { port, host = '127.0.0.1', stateDir } = options
  await mkdir(join(stateDir, 'bundles'), { recursive: true })
  // Each config is read once: for the Worker's options, its bundle's name and its migrations.
  const configs = options.workers.map((w) => unstable_readConfig({ config: w.config }))
  const bundled = () =>
    Promise.all(
      options.workers.map((w, i) => workerOptions(w, configs[i] as Config, stateDir, options.distDir)),
    )
  const miniflareOptions = (workers: V4WorkerOptions[]) =>
    convertV4MiniflareOptions({
      host,
      port,
      resourcePersistencePath: resolve(stateDir, 'v3'),
      log: new RuntimeLog(options.verbose ? LogLevel.INFO : LogLevel.WARN, options.onRuntimeCrash),
      // The service counts every request itself (/v1/stats); Miniflare's request log is noise here.
      logRequests: false,
      telemetry: { enabled: false },
      // No network look-up of Cloudflare's request metadata: a placeholder `cf` object is enough.
      cf: false,
      enableDevRegistry: false,
      // /cdn-cgi/local/scheduled fires the Cron Trigger locally (the reconciler), as wrangler dev's
      // --test-scheduled does; `?time=<ms>` sets its clock.
      unsafeTriggerHandlers: true,
      // A second report of the same crash, once workerd is back (the caller ignores repeats).
      unsafeHandleRuntimeRestart: options.onRuntimeCrash,
      ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
      workers,
    })
  const miniflare = new Miniflare(miniflareOptions(await bundled()))
  const url = (await miniflare.ready).origin
  try {
    for (const [i, worker] of options.workers.entries())
      await applyMigrations(miniflare, worker.config, configs[i] as Config)
  } catch (error) {
    // A start that fails leaves no workerd behind.
    await miniflare.dispose().catch(() => undefined)
    throw error
  }
  return {
    url,
    miniflare,
    reload: async () => {
      await miniflare.setOptions(miniflareOptions(await bundled()))
      await miniflare.ready
    },
    dispose: () => miniflare.dispose(),
  }
}

/**
 * Applies a Worker's D1 migrations that have not run yet, in file-name order, recording each in
 * the `d1_migrations` table that `wrangler d1 migrations apply` keeps, so both agree on what ran.
 */
async function applyMigrations(miniflare: Miniflare, config: string, parsed: Config): Promise<void> {
  for (const db of parsed.d1_databases ?? []) {
    const dir = resolve(config, '..', db.migrations_dir ?? 'migrations')
    const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort()
    const d1 = await miniflare.getD1Database(db.binding, parsed.name)
    await d1
      .prepare(
        'CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)',
      )
      .run()
    const done = new Set(
      (await d1.prepare('SELECT name FROM d1_migrations').all<{ name: string }>()).results.map(
        (r: { name: string }) => r.name,
      ),
    )
    for (const file of files.filter((f) => !done.has(f))) {
      const statements = unstable_splitSqlQuery(await readFile(join(dir, file), 'utf8'))
      await d1.batch([
        ...statements.map((sql) => d1.prepare(sql)),
        d1.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(file),
      ])
    }
  }
}
