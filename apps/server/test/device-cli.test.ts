/**
 * `npm run device` (devices/cli.ts) as a person types it: `--help` prints the usage and exits 0;
 * a wrong option or sn says what is wrong in a sentence, never a stack trace; connected to a
 * server, it shows the state it holds, raises and clears alarms, and restarts on reboot.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { devices } from '../src/db/schema.ts';
import { buildTestApp, type TestApp, until } from './helper.ts';

const cli = fileURLToPath(new URL('../src/device-link/cli.ts', import.meta.url));
const device = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { encoding: 'utf8', timeout: 30_000 });
const stackTrace = /^\s+at .+:\d+:\d+\)?$/m;

test('--help and -h print the usage and exit 0', () => {
  for (const flag of ['--help', '-h']) {
    const run = device(flag);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: npm run device -- --sn');
    expect(run.stdout).toContain('--secret');
    expect(run.stderr).not.toMatch(stackTrace);
  }
});

test('bad arguments are said in a sentence with the usage, exit 2, no stack trace', () => {
  const unknown = device('--bogus');
  expect(unknown.status).toBe(2);
  expect(unknown.stderr).toContain("Unknown option '--bogus'");
  expect(unknown.stderr).toContain('Usage:');
  const badSn = device('--sn', 'a b');
  expect(badSn.status).toBe(2);
  expect(badSn.stderr).toContain('The sn "a b" is not valid');
  const noSn = device();
  expect(noSn.status).toBe(2);
  expect(noSn.stderr).toContain('Say which device this is with --sn.');
  const badUrl = device('--sn', 'DEMO-001', '--url', 'not a url');
  expect(badUrl.status).toBe(2);
  expect(badUrl.stderr).toContain('is not a URL');
  for (const run of [unknown, badSn, noSn, badUrl]) expect(run.stderr).not.toMatch(stackTrace);
});

test('a protocol other than 1 or 1.1 is said in a sentence, exit 2', () => {
  const run = device('--sn', 'DEMO-001', '--protocol', '2');
  expect(run.status).toBe(2);
  expect(run.stderr).toContain('The protocol "2" is not one a device speaks');
  expect(run.stderr).not.toMatch(stackTrace);
  expect(device('--help').stdout).toContain('alarm KIND [detail]');
});

describe('connected to a server', () => {
  let t: TestApp;
  const sn = 'CLI-V11';
  const secret = randomBytes(32).toString('base64url');
  let deviceId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    await t.app.ready();
    [{ id: deviceId }] = await t.db
      .insert(devices)
      .values({ sn, name: '终端门禁', secret: t.app.devices.box.seal(secret) })
      .returning({ id: devices.id });
  });
  afterAll(() => t?.close());

  test('it shows what it holds, restarts on reboot, raises and clears alarms', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, '--sn', sn, '--secret', secret, '--url', t.app.devices.status().url!],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await until(() => out.includes('connected to'), 'the cli connected', 20_000);
      const [row] = await t.db.select().from(devices).where(eq(devices.id, deviceId));
      await until(
        async () =>
          (await t.db.select().from(devices).where(eq(devices.id, deviceId)))[0].status === 'online',
        'online',
      );
      await until(() => out.includes('← sync'), 'its sync');
      child.stdin.write('state\n');
      await until(() => /version \d+ · mode normal \(正常\)/.test(out), 'its state');
      await t.app.devices.command(
        { ...row, status: 'online' },
        { type: 'reboot', params: {} },
        { userId: null, name: '测试' },
      );
      await until(() => out.includes('reconnected and said hello (firmware 1.0.0)'), 'back after reboot');
      child.stdin.write('alarm forced 门被撬开\n');
      await until(() => out.includes('→ alarm forced raised (门被撬开)'), 'the alarm');
      child.stdin.write('alarm forced\n');
      await until(() => out.includes('forced is raised already.'), 'raised once');
      child.stdin.write('clear forced\nclear tamper\nalarm smoke\n');
      await until(() => out.includes('→ alarm forced cleared'), 'cleared');
      await until(() => out.includes('tamper is not raised.'), 'not raised');
      await until(() => out.includes('Name the alarm: held-open'), 'an unknown kind');
      child.stdin.write('quit\n');
      expect(await exited).toBe(0);
      expect(out).not.toMatch(stackTrace);
    } finally {
      child.kill();
    }
  });
});
