/**
 * Starts bench/device-child.ts (a server in its own process, killable) and answers its addresses
 * once it printed them; `stop` ends it with SIGTERM (or `kill` with SIGKILL) and waits for the exit.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./device-child.ts', import.meta.url));

export async function startChild(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ url: string; mqttUrl: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`device child server exited (${code})`)));
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { ...ready, pid: child.pid!, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}
