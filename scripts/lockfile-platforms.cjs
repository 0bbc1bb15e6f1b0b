// The npm registry reachable here lacks Biome's binaries for other platforms, so `npm install`
// leaves them out of package-lock.json and `npm ci` then refuses the lock. This adds their entries
// (optional, with os/cpu, never installed on this platform) so the lock is complete for npm ci.
// Run after any `npm install` that rewrites the lock: node scripts/lockfile-platforms.cjs
const fs = require('node:fs')
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8'))
const biome = lock.packages['node_modules/@biomejs/biome']
for (const [name, version] of Object.entries(biome.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`
  if (lock.packages[key]) continue
  const [os, cpu, libc] = name.replace('@biomejs/cli-', '').split('-')
  lock.packages[key] = {
    version,
    cpu: [cpu],
    dev: true,
    ...(libc ? { libc: [libc] } : os === 'linux' ? { libc: ['glibc'] } : {}),
    license: 'MIT OR Apache-2.0',
    optional: true,
    os: [os],
  }
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
)
fs.writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`)
