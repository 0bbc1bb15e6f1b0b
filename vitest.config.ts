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
          testTimeout: 60_000,
          hookTimeout: 120_000,
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
