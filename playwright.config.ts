import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser) against the real server
 * serving the built console, each run on fresh embedded databases loaded with the demo data.
 * A second server with a 4-second access token proves the transparent 424 refresh.
 */
export const PORT = Number(process.env.E2E_PORT ?? 3199);
export const SHORT_TOKEN_PORT = PORT - 1;
/** The embedded MQTT broker of the main server (1883 may be held by a local Mosquitto). */
export const MQTT_PORT = PORT + 10_000;
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'cowork-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;

const server = (port: number, name: string, extraEnv: Record<string, string> = {}) => ({
  // The compiled server, as `npm start` runs it: `npm run build` (scripts/test.mjs) comes first.
  command: 'node --conditions=cowork-compiled apps/server/dist/main.js',
  url: `http://127.0.0.1:${port}/api/ready`,
  timeout: 120_000,
  reuseExistingServer: false,
  stdout: 'ignore' as const,
  stderr: 'pipe' as const,
  env: {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: join(dataDir, name),
    LOG_LEVEL: 'warn',
    ...extraEnv,
  },
});

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // A busy 2-core machine can take more than 10 s to render a large table (菜单配置 lists every action).
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
  webServer: [
    // The 开放平台 spec's receiver listens on 127.0.0.1, which webhooks refuse unless allowed.
    server(PORT, 'main', { MQTT_PORT: String(MQTT_PORT), WEBHOOK_ALLOW_PRIVATE: 'true' }),
    server(SHORT_TOKEN_PORT, 'short-token', { ACCESS_TOKEN_TTL: '4', MQTT_PORT: '0' }),
  ],
});
