/**
 * The README's production example runs as written (issue 26, point 5): the fenced block after
 * `<!-- production-example -->` is run by bash in a scratch folder, with only its DATABASE_URL
 * replaced by a throw-away PostgreSQL database made from TEST_DATABASE_URL, and `npm start` standing
 * for the server it starts (main.ts through tsx: the same server, without a build that would race
 * the other builds on this machine). Then the log is read: each migration named, the start line in
 * English, ADMIN_PASSWORD ignored on the next start, and a wrong SECRET_KEY refused.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrationsFolder } from '../src/db/client.ts';
import { secretBox } from '../src/lib/secret-box.ts';
import { freePort } from './mosquitto-server.ts';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const baseUrl = process.env.TEST_DATABASE_URL;

/** The README's production example. */
function productionExample(): string {
  const readme = readFileSync(path.join(repo, 'README.md'), 'utf8');
  const block = /<!-- production-example -->\s*```bash\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!block) throw new Error('README.md has no ```bash block after <!-- production-example -->');
  return block;
}

test('docs/deploy.md shows the same production example', () => {
  const deploy = readFileSync(path.join(repo, 'docs/deploy.md'), 'utf8');
  const block = /<!-- production-example -->\s*```bash\n([\s\S]*?)\s*```/.exec(deploy)?.[1];
  expect(block?.replace(/^ {2}/gm, '').trimEnd()).toBe(productionExample().trimEnd());
});

/** Its part run at each start (the keys are made once, before it). */
function eachStart(): string {
  const block = productionExample();
  const at = block.indexOf('# Each start');
  if (at <= 0) throw new Error('the production example has no `# Each start` part');
  return block.slice(at);
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe.skipIf(!baseUrl)('production example of README.md (needs TEST_DATABASE_URL, a PostgreSQL)', () => {
  const dbName = `cowork_prod_${process.pid}_${Date.now()}`;
  let databaseUrl: string;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'cowork-prod-'));
  const running = new Set<ChildProcess>();

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(baseUrl!);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    for (const child of running) process.kill(-child.pid!, 'SIGKILL');
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Runs the example, or a part of it, with its DATABASE_URL replaced and `env` around it. */
  function start(env: Record<string, string>, script = productionExample()): Run {
    // `npm start` stands for the server it runs; anything else the block asks of npm fails loudly.
    const binDir = mkdtempSync(path.join(scratch, 'bin-'));
    const npm = path.join(binDir, 'npm');
    writeFileSync(
      npm,
      `#!/bin/sh\n[ "$1" = start ] || { echo "npm $*: the test stands in only for npm start" >&2; exit 2; }\n` +
        `exec "${path.join(repo, 'node_modules/.bin/tsx')}" "${path.join(repo, 'apps/server/src/main.ts')}"\n`,
    );
    chmodSync(npm, 0o755);
    const replaced = script.replace(/DATABASE_URL=\S+/, `DATABASE_URL=${databaseUrl}`);
    expect(replaced).not.toBe(script);
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) =>
          !/^(DATABASE_URL|SECRET_KEY|DEVICE_ENROL_KEY|ADMIN_PASSWORD|MQTT_URL|MQTT_AUTH_TOKEN|API_DOCS|NODE_ENV)$/.test(
            name,
          ),
      ),
    );
    const child = spawn('bash', ['-e', '-c', replaced], {
      cwd: scratch,
      detached: true,
      env: {
        ...inherited,
        PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
        HOST: '127.0.0.1',
        DATA_DIR: path.join(scratch, 'data'),
        LOG_LEVEL: 'info',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => {
        running.delete(child);
        resolve(code);
      }),
    );
    return { child, output: () => output, exited };
  }

  /** Waits until /api/ready answers 200 (true) or the server exits (false); at most 400 tries. */
  async function ready(run: Run, port: number): Promise<boolean> {
    let exited = false;
    void run.exited.then(() => (exited = true));
    for (let attempt = 0; attempt < 400 && !exited; attempt++) {
      const status = await fetch(`http://127.0.0.1:${port}/api/ready`).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return true;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return false;
  }

  async function stop(run: Run) {
    process.kill(-run.child.pid!, 'SIGTERM');
    await run.exited;
  }

  const journalTags = (): string[] =>
    (
      JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
        entries: { tag: string }[];
      }
    ).entries.map((e) => e.tag);

  test('starts as written, names each migration, says the link is down in English', async () => {
    // MQTT_PORT held by something else (as a local Mosquitto holds 1883): the console still starts.
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const mqttPort = (holder.address() as net.AddressInfo).port;
    const port = await freePort();
    const run = start({ PORT: String(port), MQTT_PORT: String(mqttPort) });
    try {
      expect(await ready(run, port), run.output()).toBe(true);
      const out = run.output();
      for (const tag of journalTags()) expect(out).toContain(`migration applied: ${tag}`);
      expect(out).toContain('administrator `admin` created from ADMIN_PASSWORD');
      const line = out.split('\n').find((l) => l.startsWith('Door devices:'));
      expect(line).toBe(
        `Door devices: link down (port ${mqttPort} is taken); set MQTT_PORT to a free port or MQTT_URL to a broker`,
      );
    } finally {
      await stop(run);
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 180_000);

  test('the next start applies nothing and says ADMIN_PASSWORD is ignored', async () => {
    const port = await freePort();
    const run = start({ PORT: String(port), MQTT_PORT: '0' }, eachStart());
    try {
      expect(await ready(run, port), run.output()).toBe(true);
      expect(run.output()).not.toContain('migration applied');
      expect(run.output()).toContain('ADMIN_PASSWORD ignored: an administrator already exists');
    } finally {
      await stop(run);
    }
  }, 180_000);

  test('a SECRET_KEY other than the one the device secrets were written with is refused', async () => {
    const key = readFileSync(path.join(scratch, 'cowork-secret.key'), 'utf8').trim();
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    await db.query(`insert into devices (sn, name, secret) values ('PROD-KEY-1', '大堂闸机', $1)`, [
      secretBox(key).seal('device-secret'),
    ]);
    await db.end();
    // The example's key file replaced by another key (as on an instance started with the wrong one).
    writeFileSync(path.join(scratch, 'cowork-secret.key'), `${'x'.repeat(48)}\n`);
    const port = await freePort();
    const run = start({ PORT: String(port), MQTT_PORT: '0' }, eachStart());
    try {
      expect(await ready(run, port), 'it must not get ready').toBe(false);
    } finally {
      if (run.child.exitCode === null) await stop(run);
    }
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain(
      'cowork-admin cannot start: SECRET_KEY does not match the key the stored device secrets were encrypted with',
    );
  }, 180_000);
});
