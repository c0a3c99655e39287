/**
 * A Mosquitto of a test's own: its configuration written into a temporary folder, on a free port of
 * 127.0.0.1, stopped (its process and folder) by `stop`. Needs the `mosquitto` binary (Debian's
 * package of that name, which also has `mosquitto_passwd`).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { until } from './helper.ts';

export interface MosquittoServer {
  port: number;
  /** The folder holding its configuration (and whatever the test wrote there). */
  dir: string;
  url(user?: string, password?: string): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts Mosquitto with the configuration `configure` writes for its port and folder (files it
 * names, such as a password file, may be written into `dir` by `prepare` first).
 */
export async function startMosquitto(
  configure: (port: number, dir: string) => string,
  prepare: (dir: string) => Promise<void> = async () => undefined,
): Promise<MosquittoServer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-mosquitto-'));
  await prepare(dir);
  // Started as root, mosquitto drops to its own user, which must read the folder and its files.
  await fs.chmod(dir, 0o755);
  for (const name of await fs.readdir(dir)) await fs.chmod(path.join(dir, name), 0o644);
  const port = await freePort();
  const file = path.join(dir, 'mosquitto.conf');
  await fs.writeFile(file, configure(port, dir));
  const child = spawn('mosquitto', ['-c', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${errors}`);
    return accepts(port);
  }, `mosquitto on port ${port}`);
  return {
    port,
    dir,
    url: (user, password) =>
      user
        ? `mqtt://${encodeURIComponent(user)}:${encodeURIComponent(password ?? '')}@127.0.0.1:${port}`
        : `mqtt://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
