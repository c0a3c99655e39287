/**
 * Finding 6: uploads were buffered in memory (10 × 10 MB a request, held afterwards) and a 500 MB
 * body was read to its end before the 413. Now files stream to DATA_DIR/tmp as they arrive, a body
 * announced larger than any upload is refused before it is read, a file past the limit stops the
 * request at the limit, the connection is closed instead of draining the rest, and no temporary
 * file stays behind. Through a real socket, since what matters is what the server reads.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { UPLOAD_MAX_SIZE_KB, uploadEndpoints } from '@cowork/contract';
import { UPLOAD_REQUEST_MAX_BYTES } from '../../src/modules/oss/routes.ts';
import { buildTestApp, demo, type TestApp } from '../helper.ts';

let t: TestApp;
let port: number;
let authorization: string;
beforeAll(async () => {
  t = await buildTestApp({ demoRows: false });
  ({ authorization } = await t.auth(...demo.yunying));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t?.close());

const MB = 1024 * 1024;
const BOUNDARY = 'fuzzboundary7b3c';
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Sends a multipart upload of one PNG of `fileBytes`, 64 KB at a time, and answers the status, the
 * bytes the client managed to send before the server answered and closed, and the answer's msg.
 */
function send(fileBytes: number, headers: Record<string, string | number> = {}) {
  return new Promise<{ status: number; sent: number; msg: string }>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: uploadEndpoints.upload,
      headers: { authorization, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, sent, msg: body ? JSON.parse(body).msg : '' }));
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 7);
    const write = (buffer: Buffer) => {
      sent += buffer.length;
      return req.write(buffer);
    };
    write(Buffer.concat([head, PNG_HEAD]));
    let left = fileBytes - PNG_HEAD.length;
    const pump = () => {
      while (left > 0 && !answered && !req.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!write(piece)) return void req.once('drain', pump);
      }
      if (!answered && !req.destroyed) req.end(`\r\n--${BOUNDARY}--\r\n`);
    };
    pump();
  });
}

const tmpFiles = () => fs.readdirSync(path.join(t.config.dataDir, 'tmp'));

test('a body announced larger than any upload: 413 before it is read', async () => {
  const { status, sent, msg } = await send(500 * MB, { 'content-length': 500 * MB });
  expect(status).toBe(413);
  expect(msg).toContain(`${UPLOAD_MAX_SIZE_KB} KB`);
  expect(sent).toBeLessThan(UPLOAD_REQUEST_MAX_BYTES);
});

test('a file past the limit in a chunked body: 413 at the limit, the rest never read', async () => {
  const { status, sent, msg } = await send(200 * MB);
  expect(status).toBe(413);
  expect(msg).toMatch(/big\.png/);
  // The server stopped reading near the limit; the client could not push the other 190 MB.
  expect(sent).toBeLessThan(UPLOAD_MAX_SIZE_KB * 1024 + 32 * MB);
  expect(tmpFiles()).toEqual([]);
});

test('an accepted upload leaves no temporary file; the stored file is whole', async () => {
  const { status } = await send(2 * MB);
  expect(status).toBe(200);
  expect(tmpFiles()).toEqual([]);
});
