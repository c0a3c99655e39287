/**
 * Calls the console makes to addresses staff typed in (webhooks, group robots), guarded against
 * server-side request forgery: only http(s), every address the name resolves to checked, the
 * connection pinned to the checked addresses (a DNS answer that changes between the check and the
 * connect cannot reach an internal host), no redirects, a bounded time and a bounded answer.
 */
import { lookup as resolve } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { StringDecoder } from 'node:string_decoder';

type Family = 'ipv4' | 'ipv6';
type Range = readonly [address: string, prefix: number, family: Family];

/** Refused even with WEBHOOK_ALLOW_PRIVATE: nothing legitimate lives there, cloud metadata does. */
const NEVER: Range[] = [
  ['0.0.0.0', 8, 'ipv4'], // "this network", 0.0.0.0 reaches the local host on Linux
  ['169.254.0.0', 16, 'ipv4'], // link-local, cloud metadata (169.254.169.254)
  ['224.0.0.0', 4, 'ipv4'], // multicast
  ['240.0.0.0', 4, 'ipv4'], // reserved and broadcast
  ['::', 128, 'ipv6'], // unspecified
  ['fe80::', 10, 'ipv6'], // link-local
  ['ff00::', 8, 'ipv6'], // multicast
  ['fd00:ec2::254', 128, 'ipv6'], // AWS metadata over IPv6
];

/** Loopback and private networks: on-premise receivers live here, so WEBHOOK_ALLOW_PRIVATE opens them. */
const PRIVATE: Range[] = [
  ['127.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'], // carrier-grade NAT, often a cloud's internal network
  ['198.18.0.0', 15, 'ipv4'], // benchmarking networks, private in practice
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'], // unique local
];

/**
 * IPv6 addresses that carry an IPv4 one: IPv4-compatible (`::a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`).
 * (IPv4-mapped `::ffff:a.b.c.d` is matched by BlockList against the IPv4 rules itself.)
 */
const IPV4_IN_IPV6 = ['::', '64:ff9b::'];

function blockList(ranges: Range[]): BlockList {
  const list = new BlockList();
  for (const [address, prefix, family] of ranges) {
    list.addSubnet(address, prefix, family);
    if (family !== 'ipv4') continue;
    for (const head of IPV4_IN_IPV6) {
      // `::0.0.0.0/104` would hold ::1, which is loopback, not "this network"; the rest of it
      // (`::0.1.2.3`) routes nowhere.
      if (head === '::' && address === '0.0.0.0') continue;
      list.addSubnet(`${head}${address}`, 96 + prefix, 'ipv6');
    }
  }
  return list;
}

const never = blockList(NEVER);
const privateNetworks = blockList(PRIVATE);

const familyOf = (address: string): Family => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** An IPv4-mapped address as people write it: `::ffff:7f00:1` → `127.0.0.1`. */
function shown(address: string): string {
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!mapped) return address;
  const [high, low] = [parseInt(mapped[1], 16), parseInt(mapped[2], 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why `address` may not be called, or null when it may. */
function refusal(ip: string, allowPrivate: boolean): string | null {
  const family = familyOf(ip);
  const address = shown(ip);
  if (never.check(ip, family)) {
    return `推送地址指向链路本地、组播或云服务器元数据等保留地址（${address}），任何情况下都不能推送，请换一个地址。`;
  }
  if (!allowPrivate && privateNetworks.check(ip, family)) {
    return `推送地址指向内网或本机地址（${address}），已拒绝。如需推送到内网接收方，请设置 WEBHOOK_ALLOW_PRIVATE=true。`;
  }
  return null;
}

export type OutboundCheck = { ok: true; addresses: string[] } | { ok: false; reason: string };

/**
 * Whether the console may call `url`: http(s) only, and every address its host resolves to outside
 * the refused ranges (one bad address refuses the URL, since the connect could pick any of them).
 */
export async function checkOutboundUrl(url: string, opts: { allowPrivate: boolean }): Promise<OutboundCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: '推送地址不是有效的网址，请填写以 http:// 或 https:// 开头的完整地址。' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, reason: '推送地址只支持 http:// 或 https:// 开头的网址，请修改地址。' };
  }
  // URL has already turned 2130706433, 0x7f.1 and the like into dotted IPv4.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      return { ok: false, reason: `推送地址的域名（${host}）无法解析，请检查地址是否正确。` };
    }
  }
  for (const address of addresses) {
    const reason = refusal(address, opts.allowPrivate);
    if (reason) return { ok: false, reason };
  }
  return { ok: true, addresses };
}

export interface OutboundAnswer {
  /** Absent when no answer came (refused address, connection error, timeout before the headers). */
  statusCode?: number;
  durationMs: number;
  /** The start of the answer's body, at most `maxAnswerBytes` of it. */
  answer: string;
  /** Why the call failed, in Chinese; absent when an answer came in full within the time. */
  error?: string;
}

export interface OutboundPost {
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  maxAnswerBytes: number;
  allowPrivate: boolean;
}

/** Connects only to the addresses the check passed, whatever the resolver says by then. */
function pinnedLookup(addresses: string[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      callback(
        null,
        addresses.map((address) => ({ address, family: isIP(address) })),
      );
    } else {
      const [address] = addresses;
      callback(null, address, isIP(address));
    }
  };
}

/** A connection failure as staff read it; the code only, since a message may carry the address. */
function connectionError(error: NodeJS.ErrnoException): string {
  const code = error.code ?? '';
  switch (code) {
    case 'ECONNREFUSED':
      return '连接被拒绝：接收方没有在这个地址和端口上接收请求，请检查推送地址。';
    case 'ECONNRESET':
    case 'EPIPE':
      return '连接被接收方中断，没有收到完整的应答。';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return '无法连接到接收方所在的网络，请检查推送地址和网络。';
    case 'HPE_HEADER_OVERFLOW':
      return '接收方的应答头过大，已中断。';
  }
  if (code.startsWith('HPE_')) return '接收方的应答不是有效的 HTTP 应答。';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
    return `接收方的 HTTPS 证书无法验证（${code}），已拒绝连接，请为接收方配置有效的证书。`;
  }
  return code ? `推送失败（${code}），请稍后重试或检查推送地址。` : '推送失败，请稍后重试或检查推送地址。';
}

/** A URL's user or password as typed: percent escapes decoded, a malformed one kept as it is. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** HTTP Basic credentials written into the URL (`https://user:pass@host`), if any. */
function basicAuth(url: URL): string | null {
  if (!url.username && !url.password) return null;
  const pair = `${decoded(url.username)}:${decoded(url.password)}`;
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

const timeoutError = (timeoutMs: number) =>
  `接收方在 ${Math.round(timeoutMs / 100) / 10} 秒内没有完成应答，已超时。`;

/** `promise`, or null once `ms` have passed (the work itself goes on, unwatched). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, ms))));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * POSTs `body` to `url` once. Never throws and never follows a redirect (a 3xx is an answer like any
 * other non-2xx). The address is checked at each call; the whole call, name resolution and the
 * answer's body included, ends after `timeoutMs`; at most `maxAnswerBytes` of the answer are read,
 * then the connection is dropped, so a huge answer costs nothing.
 */
export async function postOutbound(url: string, opts: OutboundPost): Promise<OutboundAnswer> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // A resolver that hangs counts against the call's time like a receiver that does.
    const check = await within(checkOutboundUrl(url, { allowPrivate: opts.allowPrivate }), opts.timeoutMs);
    if (check === null) return { durationMs: elapsed(), answer: '', error: timeoutError(opts.timeoutMs) };
    if (!check.ok) return { durationMs: elapsed(), answer: '', error: check.reason };
    return await send(url, check.addresses, opts, started);
  } catch (error) {
    // A header the request refuses (a line break in a value, …): an answer like any other failure.
    return { durationMs: elapsed(), answer: '', error: connectionError(error as NodeJS.ErrnoException) };
  }
}

/** The request itself, to the checked `addresses`, within what is left of the call's time. */
function send(
  url: string,
  addresses: string[],
  opts: OutboundPost,
  started: number,
): Promise<OutboundAnswer> {
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const headers: Record<string, string> = { ...opts.headers };
  const authorization = basicAuth(target);
  if (authorization && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
    headers.Authorization = authorization;
  }
  headers['Content-Length'] = String(Buffer.byteLength(opts.body));
  target.username = '';
  target.password = '';

  const client = target.protocol === 'https:' ? https : http;
  return new Promise<OutboundAnswer>((done) => {
    let finished = false;
    let statusCode: number | undefined;
    const decoder = new StringDecoder('utf8');
    let answer = '';
    let bytes = 0;

    const finish = (error?: string) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      // Nothing more is read from this connection: a receiver still sending is cut off.
      request.destroy();
      done({
        ...(statusCode === undefined ? {} : { statusCode }),
        durationMs: elapsed(),
        answer,
        ...(error ? { error } : {}),
      });
    };

    // finish() runs only from the events and the timer below, after both exist.
    const request = client.request(target, {
      method: 'POST',
      headers,
      lookup: pinnedLookup(addresses),
      // A fresh connection per call: a pooled one could outlive the address check.
      agent: false,
    });
    const timer = setTimeout(() => finish(timeoutError(opts.timeoutMs)), opts.timeoutMs - elapsed());

    request.on('response', (response: IncomingMessage) => {
      statusCode = response.statusCode;
      response.on('data', (chunk: Buffer) => {
        const room = opts.maxAnswerBytes - bytes;
        const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
        bytes += part.length;
        answer += decoder.write(part);
        if (bytes >= opts.maxAnswerBytes) finish();
      });
      response.on('end', () => finish());
      response.on('error', (error) => finish(connectionError(error)));
      // Closed before the whole answer came (and not by us): the receiver hung up.
      response.on('close', () =>
        finish(
          response.complete ? undefined : connectionError({ code: 'ECONNRESET' } as NodeJS.ErrnoException),
        ),
      );
    });
    request.on('error', (error) => finish(connectionError(error)));
    request.end(opts.body);
  });
}

/** Query parameters that carry a credential in the URLs of robots and common receivers. */
const SECRET_PARAMS = new Set(['access_token', 'key', 'token', 'secret', 'sign']);

/**
 * `url` as screens and logs show it: `user:pass@` as `***@`, secret query values (钉钉's
 * access_token, 企业微信's key, …) and 飞书's hook token in the path as `***`.
 */
export function hideUrlSecrets(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL: still never show what looks like credentials.
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
  if (parsed.username || parsed.password) {
    parsed.username = '***';
    parsed.password = '';
  }
  parsed.pathname = parsed.pathname.replace(/(\/bot\/v2\/hook\/)[^/]+/, '$1***');
  if (parsed.search) {
    // Rewritten by hand, not through URLSearchParams, so the other values keep their spelling.
    const parts = parsed.search.slice(1).split('&');
    parsed.search = parts
      .map((part) => {
        const name = part.split('=', 1)[0];
        let decoded = name;
        try {
          decoded = decodeURIComponent(name.replace(/\+/g, ' '));
        } catch {
          // A malformed escape: compare the raw name.
        }
        return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=***` : part;
      })
      .join('&');
  }
  return parsed.toString();
}
