/**
 * Outbound calls to staff-typed addresses (lib/outbound.ts): the refused address ranges, the
 * connection pinned to the checked address, no redirects, bounded time and answer, credentials kept
 * out of errors and screens. Local receivers on 127.0.0.x stand in for the internet.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { selfSignedCertificate } from './self-signed.ts';

/** Names the test's resolver answers itself (to play a DNS answer that changes); others resolve for real. */
const dns = vi.hoisted(() => ({ answers: new Map<string, string[] | 'hang'>() }));
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = ((host: string, options: object) => {
    const answer = dns.answers.get(host);
    if (!answer) return real.lookup(host, options);
    if (answer === 'hang') return new Promise(() => {});
    return Promise.resolve(answer.map((address) => ({ address, family: isIP(address) })));
  }) as typeof real.lookup;
  return { ...real, default: { ...real, lookup }, lookup };
});

// A fresh module graph, so the mock above applies even when an earlier file of this worker loaded
// lib/outbound.ts already (the API tests run without module isolation).
vi.resetModules();
const { checkOutboundUrl, hideUrlSecrets, postOutbound } = await import('../src/lib/outbound.ts');

const servers: (http.Server | https.Server)[] = [];
afterEach(async () => {
  dns.answers.clear();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver on `host` counting what it gets; `handle` answers (or does not). */
async function receiver(handle: http.RequestListener, host = '127.0.0.1', port = 0) {
  const hits: { url?: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hits.push({ url: req.url, headers: req.headers, body });
      handle(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { hits, server, port: (server.address() as AddressInfo).port };
}

const post = (url: string, options: Partial<Parameters<typeof postOutbound>[1]> = {}) =>
  postOutbound(url, {
    body: '{"hello":"世界"}',
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: 2_000,
    maxAnswerBytes: 2_048,
    allowPrivate: true,
    ...options,
  });

describe('checkOutboundUrl', () => {
  /** Loopback and private networks: refused unless WEBHOOK_ALLOW_PRIVATE. */
  const privateAddresses = [
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.20',
    '100.64.0.1',
    '100.127.255.254',
    '[::1]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:10.0.0.5]',
    '[::ffff:192.168.0.1]',
    '[::127.0.0.1]',
    '[64:ff9b::10.1.2.3]',
  ];
  /** Link-local, metadata, unspecified, multicast, reserved: refused even with it. */
  const neverAddresses = [
    '169.254.169.254',
    '169.254.0.1',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '[::]',
    '[fe80::1]',
    '[febf::1]',
    '[ff02::1]',
    '[fd00:ec2::254]',
    '[::ffff:169.254.169.254]',
    '[::ffff:0.0.0.0]',
    '[64:ff9b::169.254.169.254]',
  ];
  const publicAddresses = ['8.8.8.8', '172.32.0.1', '100.128.0.1', '169.255.0.1', '[2001:4860:4860::8888]'];

  it.each(privateAddresses)(
    'refuses the private or loopback %s unless private receivers are allowed',
    async (host) => {
      const refused = await checkOutboundUrl(`http://${host}:8080/hook`, { allowPrivate: false });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.reason).toContain('推送地址指向内网或本机地址');
        expect(refused.reason).toContain('WEBHOOK_ALLOW_PRIVATE=true');
      }
      expect(await checkOutboundUrl(`http://${host}:8080/hook`, { allowPrivate: true })).toMatchObject({
        ok: true,
      });
    },
  );

  it.each(neverAddresses)('refuses %s even when private receivers are allowed', async (host) => {
    for (const allowPrivate of [false, true]) {
      const refused = await checkOutboundUrl(`https://${host}/latest/meta-data`, { allowPrivate });
      expect(refused.ok).toBe(false);
      if (!refused.ok) {
        expect(refused.reason).toContain('任何情况下都不能推送');
        expect(refused.reason).not.toContain('WEBHOOK_ALLOW_PRIVATE');
      }
    }
  });

  it.each(publicAddresses)('lets the public %s through', async (host) => {
    const check = await checkOutboundUrl(`https://${host}/hook`, { allowPrivate: false });
    expect(check).toEqual({ ok: true, addresses: [host.replace(/^\[|\]$/g, '')] });
  });

  it('reads the numeric spellings of an address as the address (2130706433, 0x7f.1, 017700000001)', async () => {
    for (const host of ['2130706433', '0x7f.1', '017700000001', '127.1']) {
      const refused = await checkOutboundUrl(`http://${host}/`, { allowPrivate: false });
      expect(refused).toEqual({ ok: false, reason: expect.stringContaining('（127.0.0.1）') });
    }
  });

  it('names an IPv4-mapped address in its IPv4 form', async () => {
    expect(await checkOutboundUrl('http://[::ffff:10.0.0.5]/', { allowPrivate: false })).toEqual({
      ok: false,
      reason: expect.stringContaining('（10.0.0.5）'),
    });
    expect(await checkOutboundUrl('http://[::ffff:169.254.169.254]/', { allowPrivate: true })).toEqual({
      ok: false,
      reason: expect.stringContaining('（169.254.169.254）'),
    });
  });

  it('refuses a name that resolves to loopback (localhost) without WEBHOOK_ALLOW_PRIVATE', async () => {
    const refused = await checkOutboundUrl('http://localhost:3000/hook', { allowPrivate: false });
    expect(refused).toEqual({
      ok: false,
      reason: expect.stringMatching(/推送地址指向内网或本机地址（(127\.0\.0\.1|::1)）/),
    });
    expect(await checkOutboundUrl('http://localhost:3000/hook', { allowPrivate: true })).toMatchObject({
      ok: true,
    });
  });

  it('refuses a name when any one of its addresses is refused', async () => {
    dns.answers.set('mixed.example.com', ['93.184.216.34', '10.1.2.3']);
    expect(await checkOutboundUrl('https://mixed.example.com/', { allowPrivate: false })).toEqual({
      ok: false,
      reason: expect.stringContaining('（10.1.2.3）'),
    });
    dns.answers.set('meta.example.com', ['93.184.216.34', '169.254.169.254']);
    expect(await checkOutboundUrl('https://meta.example.com/', { allowPrivate: true })).toMatchObject({
      ok: false,
    });
    dns.answers.set('fine.example.com', ['93.184.216.34', '2606:2800:220:1::1']);
    expect(await checkOutboundUrl('https://fine.example.com/', { allowPrivate: false })).toEqual({
      ok: true,
      addresses: ['93.184.216.34', '2606:2800:220:1::1'],
    });
  });

  it('takes http and https only, and says so in Chinese', async () => {
    for (const url of [
      'ftp://example.com/x',
      'file:///etc/passwd',
      'gopher://example.com/',
      'javascript:alert(1)',
    ]) {
      expect(await checkOutboundUrl(url, { allowPrivate: true })).toEqual({
        ok: false,
        reason: '推送地址只支持 http:// 或 https:// 开头的网址，请修改地址。',
      });
    }
    expect(await checkOutboundUrl('not a url', { allowPrivate: true })).toEqual({
      ok: false,
      reason: expect.stringContaining('不是有效的网址'),
    });
  });

  it('never names the credentials of a refused URL', async () => {
    const refused = await checkOutboundUrl('http://admin:s3cret@10.0.0.5/hook', { allowPrivate: false });
    expect(refused.ok).toBe(false);
    expect(JSON.stringify(refused)).not.toMatch(/admin|s3cret/);
  });
});

describe('postOutbound', () => {
  it('posts the body with its headers and answers the status and the answer', async () => {
    const { hits, port } = await receiver((_req, res) => res.writeHead(201).end('{"ok":true}'));
    const answer = await post(`http://127.0.0.1:${port}/hook?x=1`);
    expect(answer).toEqual({ statusCode: 201, durationMs: expect.any(Number), answer: '{"ok":true}' });
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ url: '/hook?x=1', body: '{"hello":"世界"}' });
    expect(hits[0].headers['content-type']).toBe('application/json');
    expect(hits[0].headers['content-length']).toBe(String(Buffer.byteLength('{"hello":"世界"}')));
  });

  it('checks the address at each call: a loopback receiver is refused without WEBHOOK_ALLOW_PRIVATE', async () => {
    const { hits, port } = await receiver((_req, res) => res.end('ok'));
    const answer = await post(`http://localhost:${port}/`, { allowPrivate: false });
    expect(answer.statusCode).toBeUndefined();
    expect(answer.error).toContain('推送地址指向内网或本机地址');
    expect(hits).toHaveLength(0);
  });

  it('connects to the checked address, not to what the name resolves to by connect time', async () => {
    // The check sees 127.0.0.2; the system resolver would give 127.0.0.1 for localhost.
    const checked = await receiver((_req, res) => res.end('checked'), '127.0.0.2');
    const other = await receiver((_req, res) => res.end('other'), '127.0.0.1', checked.port);
    dns.answers.set('localhost', ['127.0.0.2']);
    const answer = await post(`http://localhost:${checked.port}/`);
    expect(answer).toMatchObject({ statusCode: 200, answer: 'checked' });
    expect(checked.hits[0].headers.host).toBe(`localhost:${checked.port}`);
    expect(other.hits).toHaveLength(0);
  });

  it('a name that answered a public address at the check never reaches the loopback receiver (DNS rebinding)', async () => {
    const internal = await receiver((_req, res) => res.end('internal'));
    dns.answers.set('localhost', ['192.0.2.10']); // TEST-NET-1: public in form, routes nowhere
    const answer = await post(`http://localhost:${internal.port}/`, { allowPrivate: false, timeoutMs: 500 });
    expect(answer.statusCode).toBeUndefined();
    expect(answer.error).toBeTruthy();
    expect(internal.hits).toHaveLength(0);
  });

  it('does not follow a redirect: a 302 is the answer, its target gets nothing', async () => {
    const target = await receiver((_req, res) => res.end('target'));
    const redirecting = await receiver((_req, res) =>
      res.writeHead(302, { Location: `http://127.0.0.1:${target.port}/inner` }).end(),
    );
    const answer = await post(`http://127.0.0.1:${redirecting.port}/`);
    expect(answer.statusCode).toBe(302);
    expect(answer.error).toBeUndefined();
    expect(redirecting.hits).toHaveLength(1);
    expect(target.hits).toHaveLength(0);
  });

  it('gives up on a receiver that never answers, at the timeout', async () => {
    const { hits, port } = await receiver(() => {});
    const answer = await post(`http://127.0.0.1:${port}/`, { timeoutMs: 300 });
    expect(hits).toHaveLength(1);
    expect(answer.statusCode).toBeUndefined();
    expect(answer.error).toBe('接收方在 0.3 秒内没有完成应答，已超时。');
    expect(answer.durationMs).toBeGreaterThanOrEqual(290);
    expect(answer.durationMs).toBeLessThan(1_500);
  });

  it('gives up on a receiver that trickles its answer, at the timeout for the whole call', async () => {
    const timers: NodeJS.Timeout[] = [];
    const { port } = await receiver((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      timers.push(setInterval(() => res.write('.'), 50));
    });
    try {
      const answer = await post(`http://127.0.0.1:${port}/`, { timeoutMs: 400 });
      expect(answer.statusCode).toBe(200);
      expect(answer.error).toContain('已超时');
      expect(answer.answer).toMatch(/^\.+$/);
      expect(answer.durationMs).toBeLessThan(1_500);
    } finally {
      timers.forEach(clearInterval);
    }
  });

  it('reads a huge answer only up to maxAnswerBytes, then drops the connection', async () => {
    let closed = false;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const { port } = await receiver((_req, res) => {
      res.writeHead(200);
      res.on('close', () => (closed = true));
      // Endless, as fast as the connection takes it.
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const answer = await post(`http://127.0.0.1:${port}/`, { maxAnswerBytes: 2_048 });
    expect(answer).toMatchObject({ statusCode: 200, answer: 'a'.repeat(2_048) });
    expect(answer.error).toBeUndefined();
    expect(answer.durationMs).toBeLessThan(1_000);
    await vi.waitFor(() => expect(closed).toBe(true));
  });

  it('cuts a long answer on a character, never inside one', async () => {
    const { port } = await receiver((_req, res) => res.end('告'.repeat(1_000)));
    const answer = await post(`http://127.0.0.1:${port}/`, { maxAnswerBytes: 10 });
    expect(answer.answer).toBe('告告告'); // 9 of the 10 bytes: a fourth would need 12
  });

  it('says in Chinese that a connection was refused', async () => {
    const { port, server } = await receiver(() => {});
    server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = await post(`http://127.0.0.1:${port}/`);
    expect(answer.statusCode).toBeUndefined();
    expect(answer.error).toContain('连接被拒绝');
  });

  it('sends URL credentials as Basic auth and never shows them in an error', async () => {
    const { hits, port } = await receiver((_req, res) => res.end('ok'));
    await post(`http://hook%40user:p%C3%A4ss@127.0.0.1:${port}/`);
    expect(hits[0].headers.authorization).toBe(`Basic ${Buffer.from('hook@user:päss').toString('base64')}`);
    expect(hits[0].url).toBe('/');

    const refused = await post('http://admin:s3cret@127.0.0.1:1/hook');
    const refusedPrivate = await post('http://admin:s3cret@10.0.0.5/hook', { allowPrivate: false });
    const timedOut = await post('http://admin:s3cret@192.0.2.10/hook', { timeoutMs: 200 });
    for (const answer of [refused, refusedPrivate, timedOut]) {
      expect(answer.error).toBeTruthy();
      expect(JSON.stringify(answer)).not.toMatch(/admin|s3cret/);
    }
  });

  it('counts a resolver that never answers against the same timeout', async () => {
    dns.answers.set('slow-dns.example.com', 'hang');
    const answer = await post('https://slow-dns.example.com/hook', { timeoutMs: 300 });
    expect(answer).toMatchObject({ answer: '', error: '接收方在 0.3 秒内没有完成应答，已超时。' });
    expect(answer.durationMs).toBeLessThan(1_500);
  });

  it('says so when the receiver hangs up in the middle of its answer', async () => {
    const { port } = await receiver((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"part":');
      setTimeout(() => res.destroy(), 50);
    });
    const answer = await post(`http://127.0.0.1:${port}/`);
    expect(answer).toMatchObject({
      statusCode: 200,
      answer: '{"part":',
      error: expect.stringContaining('中断'),
    });
  });

  it('never throws: a malformed URL is an error answer', async () => {
    expect(await post('http://[not-an-address/')).toMatchObject({ answer: '', error: expect.any(String) });
    const { hits, port } = await receiver((_req, res) => res.end('ok'));
    // A header the request refuses: an error answer, nothing sent.
    const header = await post(`http://127.0.0.1:${port}/`, { headers: { 'X-Note': 'a\r\nInjected: 1' } });
    expect(header).toMatchObject({ answer: '', error: expect.any(String) });
    // A malformed escape in the credentials is sent as typed.
    expect(await post(`http://us%zzer:pw@127.0.0.1:${port}/`)).toMatchObject({ statusCode: 200 });
    expect(hits).toHaveLength(1);
    expect(hits[0].headers.authorization).toBe(`Basic ${Buffer.from('us%zzer:pw').toString('base64')}`);
  });

  describe('over https', () => {
    let dir: string;
    let options: { key: Buffer; cert: Buffer };
    it('sends the name as SNI and checks the certificate against it', async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'cowork-outbound-'));
      try {
        const { key, cert } = selfSignedCertificate(dir);
        options = { key: readFileSync(key), cert: readFileSync(cert) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      const names: string[] = [];
      const server = https.createServer(
        {
          ...options,
          SNICallback: (name, done) => {
            names.push(name);
            done(null, undefined);
          },
        },
        (_req, res) => res.end('secret answer'),
      );
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      dns.answers.set('localhost', ['127.0.0.1']);
      const answer = await post(`https://localhost:${port}/`);
      expect(names).toEqual(['localhost']);
      // Self-signed: refused like any receiver whose certificate nobody vouches for.
      expect(answer).toMatchObject({ answer: '', error: expect.stringContaining('证书无法验证') });
    });
  });
});

describe('hideUrlSecrets', () => {
  it.each([
    ['https://user:pass@hooks.example.com/in', 'https://***@hooks.example.com/in'],
    ['https://user@hooks.example.com/in', 'https://***@hooks.example.com/in'],
    [
      'https://oapi.dingtalk.com/robot/send?access_token=0123abcd&timestamp=1',
      'https://oapi.dingtalk.com/robot/send?access_token=***&timestamp=1',
    ],
    [
      'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx',
      'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=***',
    ],
    [
      'https://open.feishu.cn/open-apis/bot/v2/hook/0a1b2c3d-uuid',
      'https://open.feishu.cn/open-apis/bot/v2/hook/***',
    ],
    [
      'https://erp.example.com/in?Token=abc&secret=x&sign=y&name=a%20b+c&keep=1',
      'https://erp.example.com/in?Token=***&secret=***&sign=***&name=a%20b+c&keep=1',
    ],
    ['https://erp.example.com/in?monkey=1', 'https://erp.example.com/in?monkey=1'],
    ['not a url://u:p@x', 'not a url://***@x'],
  ])('%s shows as %s', (url, shown) => {
    expect(hideUrlSecrets(url)).toBe(shown);
  });
});
