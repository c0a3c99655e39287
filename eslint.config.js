import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';

/**
 * The lines imports may not cross, as apps/server/src/modules/README.md draws them. Paths are from
 * the repository root (this file's folder, wherever eslint runs from); an import is judged by the
 * file it resolves to.
 */
const root = import.meta.dirname;
const server = 'apps/server/src';
const modules = `${server}/modules`;

/** Module files other modules may import (the README's table says what each shares and with whom). */
const sharedModuleFiles = [
  'area/areas.ts',
  'auth/throttle.ts',
  'auth/tokens.ts',
  'company-card/ledger.ts',
  'company/staff.ts',
  'csr-capital-site/lead-demo.ts',
  'csr-capital-site/lead.ts',
  'device/records.ts',
  'kreator-user-group/webhook-events.ts',
  'order/order-number.ts',
  'order/routes.ts',
  'order/snapshot.ts',
  'oss/storage.ts',
  'space/paths.ts',
];

/** Besides its own folder and the shared module files, what a module may import. */
const moduleMayImport = [
  'node_modules',
  'packages/contract',
  `${server}/db`,
  `${server}/lib`,
  `${server}/plugins/auth.ts`,
  `${server}/plugins/errors.ts`,
  `${server}/device-link`,
  `${server}/config.ts`,
  `${server}/seed/menus.ts`,
  `${server}/seed/roles.ts`,
];

const moduleNames = readdirSync(`${root}/${modules}`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const boundaryZones = [
  ...moduleNames.map((name) => ({
    target: `${modules}/${name}`,
    from: '.',
    except: [
      `${modules}/${name}`,
      ...sharedModuleFiles.map((file) => `${modules}/${file}`),
      ...moduleMayImport,
    ],
    message: 'A module imports only what apps/server/src/modules/README.md allows.',
  })),
  {
    target: [`${server}/lib`, `${server}/plugins`, `${server}/db`, `${server}/device-link`],
    from: modules,
    message: 'lib, plugins, db and device-link sit below the modules: move what they need down.',
  },
  {
    target: 'packages/contract',
    from: 'apps',
    message: 'The contract is shared by the server and the console and imports neither.',
  },
  { target: 'apps/web', from: 'apps/server', message: 'The console talks to the server over HTTP only.' },
  {
    target: 'e2e',
    from: 'apps/server',
    except: ['src/device-link/simulator.ts', 'src/config.ts'],
    message: 'End-to-end tests drive the server over HTTP, and a door device through the simulator.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules',
      '**/dist',
      'data',
      'apps/server/drizzle',
      'test-results',
      'playwright-report',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] })],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
