import { cloudflareTest } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        // The build and its checks need no running service: `npx vitest run --project build`.
        test: { name: 'build', include: ['test/build/**/*.test.ts'], testTimeout: 120_000 },
      },
      {
        // Pure functions of the Workers (address prefixes, body caps, refund verdicts), in Node.
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**', 'test/build/**', 'test/unit/**'],
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
