import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` (from apps/server) writes SQL migrations that main.ts and the tests apply.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
