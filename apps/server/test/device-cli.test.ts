/**
 * `npm run device` (devices/cli.ts) as a person types it: `--help` prints the usage and exits 0;
 * a wrong option or sn says what is wrong in a sentence, never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const cli = fileURLToPath(new URL('../src/devices/cli.ts', import.meta.url));
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
