/**
 * The real server (main.ts through tsx) and the repository's commands (npm run backup / restore) in
 * child processes, for what happens across processes: instances starting together on one database,
 * a backup of a running server, a restore. Each server gets its own ports; `stop` ends it with
 * SIGTERM as systemd does; `stopAll` kills what a failed test left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET, endpoints } from '@cowork/contract';
import { freePort } from './mosquitto-server.ts';

export const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** Variables of this process a child must not inherit: each test says its own. */
const OWN =
  /^(DATABASE_URL|DATA_DIR|SECRET_KEY|DEVICE_ENROL_KEY|ADMIN_PASSWORD|MQTT_URL|MQTT_AUTH_TOKEN|NODE_ENV|PORT|MQTT_PORT|STORAGE|BACKUP_DIR|DEMO_ORDERS|DEMO_DEVICES)$/;
const inherited = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !OWN.test(name)));

const running = new Set<ChildProcess>();

interface Child {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Node with tsx's loader, as `npm run` runs these scripts (node by its path: PATH may be the test's). */
function run(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repo,
    detached: true,
    env: { ...inherited(), LOG_LEVEL: 'info', ...env },
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

export interface ServerProcess extends Child {
  port: number;
  mqttPort: number;
  base: string;
  /** Waits until /api/ready answers 200 (true) or the server exits (false). */
  ready(): Promise<boolean>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
}

/** Starts a server with `env` (DATA_DIR, DATABASE_URL, keys…) on free ports of 127.0.0.1. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const mqttPort = await freePort();
  const started = run([path.join(repo, 'apps/server/src/main.ts')], {
    HOST: '127.0.0.1',
    PORT: String(port),
    MQTT_PORT: String(mqttPort),
    DEMO_DEVICES: '0',
    DEMO_ORDERS: '100',
    NODE_ENV: 'development',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  return {
    ...started,
    port,
    mqttPort,
    base,
    async ready() {
      let exited = false;
      void started.exited.then(() => (exited = true));
      for (let attempt = 0; attempt < 600 && !exited; attempt++) {
        const status = await fetch(`${base}${endpoints.ready}`).then(
          (res) => res.status,
          () => 0,
        );
        if (status === 200) return true;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return false;
    },
    async stop() {
      if (started.child.exitCode === null && started.child.signalCode === null)
        process.kill(-started.child.pid!, 'SIGTERM');
      await started.exited;
    },
  };
}

/** `npm run <script> -- args` as the package.json script runs it; answers its exit code and output. */
export async function runScript(
  script: 'backup' | 'restore',
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const started = run([path.join(repo, 'scripts', `${script}.ts`), ...args], env);
  const code = await started.exited;
  return { code, output: started.output() };
}

/** Kills every child a test left running. */
export function stopAll() {
  for (const child of running) process.kill(-child.pid!, 'SIGKILL');
}

/** Signs in as `username` over HTTP; answers a bearer header. */
export async function signIn(base: string, username: string, password: string) {
  const res = await fetch(`${base}${endpoints.token}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN_CLIENT_ID}:${ADMIN_CLIENT_SECRET}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ grant_type: 'password', username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username} failed: ${res.status} ${await res.text()}`);
  const { access_token } = (await res.json()) as { access_token: string };
  return { authorization: `Bearer ${access_token}` };
}

/** An empty PostgreSQL database made from TEST_DATABASE_URL, and a drop that removes it. */
export async function emptyPostgres(
  label: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('needs TEST_DATABASE_URL');
  const name = `cowork_${label}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
