/**
 * Point 11: a request body trickled one byte at a time (slowloris) must not hold a connection open.
 * A real listening server with a short REQUEST_TIMEOUT_MS; the client sends the headers, then one
 * byte of a never-finished body every half second, and the server must answer 408 and close.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { source } from '@cowork/contract/resources/source';
import { loadConfig } from '../../src/config.ts';
import { buildTestApp, demo, type TestApp } from '../helper.ts';

const REQUEST_TIMEOUT_MS = 1500;

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ demoRows: false, config: { requestTimeoutMs: REQUEST_TIMEOUT_MS } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await t?.close();
});

/**
 * Sends the headers of a create with a 100-byte body, then one byte every 500 ms. Resolves with
 * what the server answered once it closed the connection, or `still open` after `giveUpMs`.
 */
function trickle(headers: Record<string, string>, giveUpMs: number) {
  return new Promise<{ closed: boolean; answer: string }>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    const head = [
      `POST ${source.base}/save HTTP/1.1`,
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Content-Length: 100',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${head.join('\r\n')}\r\n\r\n{`);
    const drip = setInterval(() => socket.write(' '), 500);
    const finish = (closed: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closed, answer });
    };
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

test('a body trickled byte by byte is cut with 408, signed in or not', { timeout: 20_000 }, async () => {
  const { authorization } = await t.auth(...demo.admin);
  // Ten times the configured deadline: the old server (no deadline) kept both open forever.
  const [signedIn, anonymous] = await Promise.all([
    trickle({ Authorization: authorization }, REQUEST_TIMEOUT_MS * 10),
    trickle({}, REQUEST_TIMEOUT_MS * 10),
  ]);
  expect(signedIn.closed).toBe(true);
  expect(signedIn.answer).toMatch(/^HTTP\/1\.1 408 /);
  expect(anonymous.closed).toBe(true);
});

test('the default deadline cuts a slow body well before 150 s, and reaches the server', () => {
  const defaults = loadConfig({});
  expect(defaults.requestTimeoutMs).toBeGreaterThanOrEqual(10_000);
  expect(defaults.requestTimeoutMs).toBeLessThanOrEqual(60_000);
  expect(t.app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
  expect(t.app.server.headersTimeout).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS);
});
