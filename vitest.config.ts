import { defineConfig } from 'vitest/config';

/**
 * One vitest run for every unit and API test. The server's API suite runs on embedded PGlite,
 * and once more on PostgreSQL when TEST_DATABASE_URL is set.
 */
/**
 * Files whose subject never reaches the database engine (the broker's socket limits, the body and
 * upload streams, the spreadsheet parser's bombs, proxy addresses, the device CLI, start-up in
 * production, instances starting together and backups, which make their own PostgreSQL databases, a
 * migration run on a PGlite of its own): they run once, on PGlite, and the PostgreSQL pass spends its
 * time on what does differ between the engines.
 */
const engineIndependent = [
  'apps/server/test/backup-restore.test.ts',
  'apps/server/test/broker-check.test.ts',
  'apps/server/test/broker-limits.test.ts',
  'apps/server/test/device-cli.test.ts',
  'apps/server/test/enumerations.test.ts',
  'apps/server/test/migration-companies.test.ts',
  'apps/server/test/outbound.test.ts',
  'apps/server/test/production-start.test.ts',
  'apps/server/test/robots.test.ts',
  'apps/server/test/serializer.test.ts',
  'apps/server/test/start-lock.test.ts',
  'apps/server/test/security/excel-bomb.test.ts',
  'apps/server/test/security/proxy.test.ts',
  'apps/server/test/security/slow-body.test.ts',
  'apps/server/test/security/upload.test.ts',
];

/**
 * The run's id, inherited by every worker: the API suite names the seeded database templates it
 * shares between test files after it (apps/server/test/helper.ts), and global-setup.ts drops them.
 */
process.env.COWORK_TEST_RUN ??= String(Date.now());

const serverProject = (engine: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `api-${engine}`,
    include: ['apps/server/test/**/*.test.ts'],
    exclude: engine === 'postgres' ? engineIndependent : [],
    environment: 'node',
    env: { TEST_ENGINE: engine },
    globalSetup: ['apps/server/test/global-setup.ts'],
    // Each file builds its own app on its own database, so the files need no module isolation;
    // without it the server's module graph is loaded once per worker instead of once per file,
    // which was ~4 s a file, a third of the suite's time.
    isolate: false,
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
