import { defineConfig } from 'vitest/config';

/**
 * One vitest run for every unit and API test. The server's API suite runs on embedded PGlite,
 * and once more on PostgreSQL when TEST_DATABASE_URL is set.
 */
const serverProject = (engine: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `api-${engine}`,
    include: ['apps/server/test/**/*.test.ts'],
    environment: 'node',
    env: { TEST_ENGINE: engine },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contract', include: ['packages/contract/test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'repo', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/src/test-setup.ts'],
        },
      },
    ],
  },
});
