import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The API server (apps/server) listens here in development; it also serves dist/ in production. */
const apiServer = process.env.API_SERVER ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiServer, changeOrigin: true },
      '/file': { target: apiServer, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // bench/bundle.ts reads the manifest to measure what each route loads.
    manifest: true,
    rolldownOptions: {
      treeshake: {
        // antd imports one context from @rc-component/form's index on every screen; the index's
        // static-property writes (Form.Field = Field …) would keep the whole form engine and its
        // validator with it. The package has no module-level side effects to keep.
        moduleSideEffects: [{ test: /node_modules\/@rc-component\/form\//, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          // What the entry loads before anything shows goes in one file: a page needs all of it
          // anyway, and one file compresses better and costs one request instead of nine.
          groups: [{ name: 'boot', tags: ['$initial'] }],
        },
      },
    },
  },
});
