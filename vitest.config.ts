import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**'],
          globalSetup: ['test/setup/service.ts'],
          // Generous on purpose: a volume test (1,000 submissions) must finish, however busy the
          // machine; how fast it finishes is the benchmark's business, not a test's.
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // One service on one port is shared; files run one at a time against it.
          fileParallelism: false,
        },
      },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: './test/workers/wrangler.jsonc' } })],
        test: { name: 'workers', include: ['test/workers/**/*.test.ts'] },
      },
    ],
  },
})
