// The npm registry reachable here lacks some packages' binaries for other platforms (Biome's CLI,
// workerd), so `npm install` leaves them out of package-lock.json and `npm ci` then refuses the
// lock. This adds their entries (optional, with os/cpu, never installed on this platform) beside
// the package that wants them, so the lock is complete for npm ci on any machine.
// Run after any `npm install` that rewrites the lock: node scripts/ci/lockfile-platforms.cjs
const fs = require('node:fs')
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'))

/** Platform packages by name: `@biomejs/cli-linux-x64-musl`, `@cloudflare/workerd-windows-64`. */
const PLATFORM_PACKAGES = [
  { prefix: '@biomejs/cli-', license: 'MIT OR Apache-2.0' },
  { prefix: '@cloudflare/workerd-', license: 'Apache-2.0' },
]
const OS = { darwin: 'darwin', linux: 'linux', win32: 'win32', windows: 'win32' }
const CPU = { x64: 'x64', 64: 'x64', arm64: 'arm64' }

for (const [key, entry] of Object.entries({ ...lock.packages })) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const kind = PLATFORM_PACKAGES.find((p) => name.startsWith(p.prefix))
    if (!kind) continue
    // npm resolves a dependency from the dependent's own node_modules upwards: skip it when any of
    // those folders has it, else add it beside the dependent (where this platform's copy sits).
    const folders = [`${key}/node_modules`]
    for (let at = key.lastIndexOf('/node_modules/'); at >= 0; at = key.lastIndexOf('/node_modules/', at - 1))
      folders.push(key.slice(0, at + '/node_modules'.length))
    folders.push('node_modules')
    if (folders.some((folder) => lock.packages[`${folder}/${name}`])) continue
    const where = `${folders[1] ?? 'node_modules'}/${name}`
    const [os, cpu, libc] = name.slice(kind.prefix.length).split('-')
    lock.packages[where] = {
      version,
      cpu: [CPU[cpu] ?? cpu],
      dev: true,
      ...(libc
        ? { libc: [libc] }
        : os === 'linux' && kind.prefix === '@biomejs/cli-'
          ? { libc: ['glibc'] }
          : {}),
      license: kind.license,
      optional: true,
      os: [OS[os] ?? os],
    }
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
