/**
 * The files of docs/deploy/ run here. The environment template names every variable of the
 * README's configuration table; the nginx site's body limits are the server's own, on the paths
 * that have them; Debian's nginx accepts the site (`nginx -t`) and then serves it for real, with a
 * self-signed certificate, in front of two stand-in instances on this machine, so each of its rules
 * is seen at work; systemd-analyze verifies the units. Only the addresses, ports and file paths of
 * the files are changed for the test; what needs a missing program is skipped, saying which.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  chmodSync,
  readFileSync,
  rmSync,
  writeFileSync,
  copyFileSync,
} from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as contract from '@cowork/contract';
import { UPLOAD_REQUEST_MAX_BYTES } from '../apps/server/src/modules/oss/routes.ts';
import { selfSignedCertificate } from '../apps/server/test/self-signed.ts';

const root = new URL('..', import.meta.url).pathname;
const deploy = (file: string) => path.join(root, 'docs/deploy', file);
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
/** What a multipart form adds around its file, as the firmware upload counts it (firmware/files.ts). */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const which = (program: string, places: string[]) =>
  places.map((dir) => path.join(dir, program)).find((file) => existsSync(file));
const nginx = which('nginx', ['/usr/sbin', '/usr/bin', '/usr/local/sbin']);
const systemdAnalyze = which('systemd-analyze', ['/usr/bin', '/bin']);

test('the environment template names every variable of the README configuration table', () => {
  const table = /## Configuration\n([\s\S]*?)\n\n[^|]/.exec(read('README.md'))?.[1] ?? '';
  const names = table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => line.split('|')[1].match(/`[A-Z0-9_]+`/g) ?? [])
    .map((name) => name.slice(1, -1));
  expect(names.length).toBeGreaterThan(40);
  const template = readFileSync(deploy('cowork-admin.env.example'), 'utf8');
  const listed = new Set([...template.matchAll(/^#?([A-Z0-9_]+)=/gm)].map((m) => m[1]));
  expect(names.filter((name) => !listed.has(name))).toEqual([]);
});

/** The nginx site as written. */
const site = () => readFileSync(deploy('nginx.conf'), 'utf8');

/** The `client_max_body_size` in bytes of the location block opened by `opening`, or of the server. */
function bodyLimit(text: string, opening?: string): number {
  let scope = text.slice(text.indexOf('listen 443'));
  if (opening) {
    const at = scope.indexOf(`location ${opening} {`);
    expect(at, `a location ${opening}`).toBeGreaterThan(0);
    scope = scope.slice(at, scope.indexOf('}', at));
  }
  const [, amount, unit] = /client_max_body_size (\d+)([km]?);/.exec(scope) ?? [];
  return Number(amount) * (unit === 'm' ? 1024 * 1024 : unit === 'k' ? 1024 : 1);
}

test("the site's body limits are the server's, on the paths that have them", () => {
  const text = site();
  expect(bodyLimit(text)).toBe(Fastify().initialConfig.bodyLimit);
  expect(bodyLimit(text, `= ${contract.uploadEndpoints.upload}`)).toBe(UPLOAD_REQUEST_MAX_BYTES);
  expect(bodyLimit(text, `= ${contract.doorOperationEndpoints.firmwareUpload}`)).toBe(
    contract.FIRMWARE_MAX_BYTES + FORM_OVERHEAD_BYTES,
  );
  const importLocation = /location ~ (\S+\/import\/excel\$) \{/.exec(text)?.[1];
  expect(bodyLimit(text, `~ ${importLocation}`)).toBe(contract.IMPORT_MAX_BYTES + FORM_OVERHEAD_BYTES);
  expect(
    new RegExp(importLocation!).test(contract.importPaths({ base: '/api/basic/admin/v1/dict' }).excel),
  ).toBe(true);
});

/** A port of 127.0.0.1 free now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Seen {
  by: 'a' | 'b';
  url: string;
  headers: http.IncomingHttpHeaders;
  bytes: number;
}

/**
 * A stand-in instance: answers what it was sent. The first lacks the console's files (/assets/),
 * as an instance of the other build does during a rolling upgrade.
 */
function standIn(name: 'a' | 'b', seen: Seen[]) {
  return http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      seen.push({ by: name, url: req.url ?? '', headers: req.headers, bytes });
      if (req.url?.startsWith('/assets/')) {
        if (name === 'a') return void res.writeHead(404).end('no such file');
        return void res.writeHead(200, { 'cache-control': 'no-store' }).end('asset');
      }
      if (req.url === '/' || req.url === '/index.html')
        return void res.writeHead(200, { 'cache-control': 'public, max-age=600' }).end('<html>');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, bytes }));
    });
  });
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request to nginx (TLS with the test's own certificate, or plain HTTP). */
function request(
  port: number,
  options: { path: string; method?: string; headers?: Record<string, string>; body?: Buffer; tls?: boolean },
): Promise<Reply> {
  const client = options.tls === false ? http : https;
  return new Promise((resolve, reject) => {
    const req = client.request(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: { host: 'console.example.com', ...options.headers },
        // The certificate is the test's own, made a moment ago: TLS itself is what is checked here.
        rejectUnauthorized: false,
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe.skipIf(!nginx)('the nginx site (skipped when nginx is not installed: apt-get install nginx)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cowork-nginx-'));
  const seen: Seen[] = [];
  const standIns = [standIn('a', seen), standIn('b', seen)];
  let running: ChildProcess | undefined;
  let httpsPort = 0;
  let httpPort = 0;

  beforeAll(async () => {
    // nginx's workers run as another user when it is started as root: they must reach the folder.
    chmodSync(dir, 0o755);
    const { key, cert } = selfSignedCertificate(dir);
    const ports = await Promise.all(
      standIns.map(async (s) => {
        const port = await freePort();
        await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
        return port;
      }),
    );
    [httpsPort, httpPort] = [await freePort(), await freePort()];
    const replacements: [string | RegExp, string][] = [
      ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
      ['listen 80;', `listen 127.0.0.1:${httpPort};`],
      [/ *listen \[::\]:\d+[^;]*;\n/g, ''],
      ['server 127.0.0.1:3001 ', `server 127.0.0.1:${ports[0]} `],
      ['server 127.0.0.1:3002 ', `server 127.0.0.1:${ports[1]} `],
      ['/etc/letsencrypt/live/console.example.com/fullchain.pem', cert],
      ['/etc/letsencrypt/live/console.example.com/privkey.pem', key],
      [/\/var\/log\/nginx\//g, `${dir}/`],
    ];
    let text = site();
    for (const [from, to] of replacements) {
      const changed = text.replace(from, to);
      expect(changed, `the site has ${String(from)}`).not.toBe(text);
      text = changed;
    }
    writeFileSync(path.join(dir, 'site.conf'), text);
    writeFileSync(
      path.join(dir, 'nginx.conf'),
      [
        'worker_processes 1;',
        'pid nginx.pid;',
        'error_log error.log warn;',
        'events { worker_connections 64; }',
        'http {',
        '  access_log access.log;',
        ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${t}_temp;`),
        `  include ${path.join(dir, 'site.conf')};`,
        '}',
      ].join('\n'),
    );
  });

  afterAll(async () => {
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running!.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    }
    await Promise.all(standIns.map((s) => new Promise((resolve) => s.close(resolve))));
    rmSync(dir, { recursive: true, force: true });
  });

  const args = () => ['-p', `${dir}/`, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')];

  test('nginx -t accepts it', () => {
    const result = spawnSync(nginx!, ['-t', ...args()], { encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain('test is successful');
  });

  test('served for real: TLS, headers, body limits, cache rules, metrics kept in, its own 503', async () => {
    running = spawn(nginx!, [...args(), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    running.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    for (let i = 0; ; i++) {
      const up = await request(httpsPort, { path: '/api/ping' }).then(
        () => true,
        () => false,
      );
      if (up) break;
      if (i > 100 || running.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const plain = await request(httpPort, { path: '/merchant/brand?x=1', tls: false });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe('https://console.example.com/merchant/brand?x=1');

    // The instance sees the client's address (never what the client claims), the scheme and an id.
    seen.length = 0;
    const api = await request(httpsPort, {
      path: '/api/user/admin/v1/sso-user/user-info',
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-request-id': 'made-up-by-client' },
    });
    expect(api.status).toBe(200);
    const [headers] = seen.map((s) => s.headers);
    expect(headers['x-forwarded-for']).toBe('127.0.0.1');
    expect(headers['x-forwarded-proto']).toBe('https');
    expect(headers['x-forwarded-host']).toBe('console.example.com');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);

    // 2 MB: more than a JSON body may be (answered as the server would), less than an upload.
    const twoMb = Buffer.alloc(2 * 1024 * 1024, 120);
    const tooLarge = await request(httpsPort, {
      path: '/api/basic/admin/v1/dict/save',
      method: 'POST',
      body: twoMb,
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({
      code: 413,
      msg: expect.stringContaining('请求内容过大'),
    });
    for (const upload of [contract.uploadEndpoints.upload, '/api/basic/admin/v1/dict/import/excel']) {
      const res = await request(httpsPort, { path: upload, method: 'POST', body: twoMb });
      expect(res.status, upload).toBe(200);
      expect(JSON.parse(res.body).bytes).toBe(twoMb.length);
    }

    // Hashed files: a year, from whichever instance has them; index.html: asked again each time.
    // Asked twice, so that one of the two goes to the instance without the file first.
    for (const attempt of [1, 2]) {
      const asset = await request(httpsPort, { path: '/assets/index-3f2a9c.js' });
      expect(asset.status, `attempt ${attempt}`).toBe(200);
      expect(asset.body).toBe('asset');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(seen.some((s) => s.by === 'a' && s.url.startsWith('/assets/'))).toBe(true);
    for (const page of ['/', '/index.html']) {
      const index = await request(httpsPort, { path: page });
      expect(index.headers['cache-control'], page).toBe('no-cache');
    }
    expect((await request(httpsPort, { path: '/metrics' })).status).toBe(404);
    expect(seen.some((s) => s.url === '/metrics')).toBe(false);

    // Both instances down: nginx's own answer, in the server's envelope.
    await Promise.all(standIns.map((s) => new Promise((resolve) => s.close(resolve))));
    const down = await request(httpsPort, { path: '/api/health' });
    expect(down.status).toBe(503);
    expect(JSON.parse(down.body)).toMatchObject({ code: 503, msg: '服务暂时不可用，请稍后重试' });
  }, 60_000);
});

describe.skipIf(!systemdAnalyze)('the systemd units (skipped when systemd-analyze is missing)', () => {
  test('systemd-analyze verify finds nothing to say', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cowork-units-'));
    try {
      // Installed as a template (cowork-admin@3001) and as the single unit; node where this one is.
      const units = {
        'cowork-admin@.service': 'cowork-admin.service',
        'cowork-admin.service': 'cowork-admin.service',
        'cowork-admin-backup.service': 'cowork-admin-backup.service',
        'cowork-admin-backup.timer': 'cowork-admin-backup.timer',
      };
      for (const [name, file] of Object.entries(units)) {
        copyFileSync(deploy(file), path.join(dir, name));
        const text = readFileSync(path.join(dir, name), 'utf8');
        writeFileSync(path.join(dir, name), text.replaceAll('/usr/bin/node ', `${process.execPath} `));
      }
      const result = spawnSync(
        systemdAnalyze!,
        [
          'verify',
          ...[
            'cowork-admin@3001.service',
            'cowork-admin.service',
            'cowork-admin-backup.service',
            'cowork-admin-backup.timer',
          ].map((u) => path.join(dir, u)),
        ],
        { encoding: 'utf8', cwd: dir },
      );
      expect(result.status, result.stderr).toBe(0);
      expect(result.stderr.trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
