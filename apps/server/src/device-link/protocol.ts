/**
 * The wire format of the device protocol v1.1 (docs/device-protocol.md), shared by the server's device link and the simulator:
 * topics, the signed envelope, its checks, and the door codes (TOTP by otpauth).
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import { recordOf } from '../lib/unknown.ts';
import {
  DEVICE_CLOCK_WINDOW_MS,
  DEVICE_MAX_PAYLOAD_BYTES,
  DEVICE_REPLAY_WINDOW_MS,
  DEVICE_SN_PATTERN,
} from '@cowork/contract';

export const topics = {
  cmd: (sn: string) => `devices/${sn}/cmd`,
  evt: (sn: string) => `devices/${sn}/evt`,
  status: (sn: string) => `devices/${sn}/status`,
};

/** `devices/{sn}/{kind}` → its parts, or undefined for any other topic. */
export function parseTopic(topic: string): { sn: string; kind: 'cmd' | 'evt' | 'status' } | undefined {
  const [root, sn, kind, ...rest] = topic.split('/');
  if (root !== 'devices' || rest.length > 0 || !DEVICE_SN_PATTERN.test(sn ?? '')) return undefined;
  if (kind !== 'cmd' && kind !== 'evt' && kind !== 'status') return undefined;
  return { sn, kind };
}

export interface Envelope<P = Record<string, unknown>> {
  id: string;
  type: string;
  ts: number;
  params: P;
  sig: string;
}

/** JSON with object keys sorted at every depth (arrays keep their order) and no whitespace. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Lowercase hex HMAC-SHA256 keyed by the secret's UTF-8 bytes, of the message without `sig`. */
export function signatureOf(message: Omit<Envelope, 'sig'> & { sig?: unknown }, key: string): string {
  const { sig: _sig, ...unsigned } = message;
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(canonicalJson(unsigned)).digest('hex');
}

/** A new signed message (a kept event sent again keeps its `id`, with a fresh `ts` and `sig`). */
export function seal<P extends Record<string, unknown>>(
  type: string,
  params: P,
  key: string,
  now = Date.now(),
  id: string = randomUUID(),
): Envelope<P> {
  const unsigned = { id, type, ts: now, params };
  return { ...unsigned, sig: signatureOf(unsigned, key) };
}

export type DropReason =
  | 'oversized'
  | 'too-deep'
  | 'malformed'
  | 'unsigned'
  | 'bad-signature'
  | 'stale'
  | 'replayed'
  | 'at-out-of-range'
  | 'rate'
  | 'enrol-rate';

export const dropReasonLabels: Record<DropReason, string> = {
  oversized: '消息过大',
  'too-deep': '嵌套过深',
  malformed: '格式错误',
  unsigned: '缺少签名',
  'bad-signature': '签名错误',
  stale: '时间戳超出窗口',
  replayed: '重放的消息',
  'at-out-of-range': '事件时间超出范围',
  rate: '超出速率',
  'enrol-rate': '注册消息超出速率',
};

/** v1.1: a UUID v4 in lowercase only, so one event cannot be logged twice under two spellings. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Deeper than any message of the protocol nests (params holds lists of objects: depth 4). */
export const MAX_JSON_DEPTH = 16;

/**
 * Whether the JSON text nests objects and arrays deeper than `max`, read without parsing: a
 * payload of thousands of brackets is refused before JSON.parse and the recursive canonical form
 * spend time (or stack) on it.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * The envelope of a payload, or why it is refused: size, JSON, shape. The signature is checked by
 * `verify` once the key is known (the envelope's type decides which key: `hello` may use the
 * enrolment key).
 */
export function parseEnvelope(payload: Buffer | string): Envelope | DropReason {
  const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
  if (size > DEVICE_MAX_PAYLOAD_BYTES) return 'oversized';
  const text = payload.toString();
  if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return 'too-deep';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'malformed';
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return 'malformed';
  const m = recordOf(value);
  if (typeof m.id !== 'string' || !UUID_V4.test(m.id)) return 'malformed';
  if (typeof m.type !== 'string' || m.type.length === 0 || m.type.length > 40) return 'malformed';
  if (typeof m.ts !== 'number' || !Number.isFinite(m.ts)) return 'malformed';
  const params = m.params ?? {};
  if (!params || typeof params !== 'object' || Array.isArray(params)) return 'malformed';
  if (m.sig === undefined) return 'unsigned';
  if (typeof m.sig !== 'string' || !/^[0-9a-f]{64}$/.test(m.sig)) return 'bad-signature';
  return { id: m.id, type: m.type, ts: m.ts, params: recordOf(params), sig: m.sig };
}

/** Whether the message was signed with `key`, compared in constant time. */
export function signedWith(message: Envelope, key: string): boolean {
  const expected = Buffer.from(signatureOf(message, key), 'hex');
  const given = Buffer.from(message.sig, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A text parameter as the server keeps it: cut to `max` characters, or null when not a string. */
export const textParam = (value: unknown, max = 100) =>
  typeof value === 'string' ? value.slice(0, max) : null;

/** v1.1 Delivery: an event's `at` is accepted from 30 days ago to 5 minutes ahead. */
export const EVENT_AT_PAST_MS = 30 * 86_400_000;
export const EVENT_AT_AHEAD_MS = 5 * 60_000;
export const eventAtAccepted = (at: number, now = Date.now()) =>
  at >= now - EVENT_AT_PAST_MS && at <= now + EVENT_AT_AHEAD_MS;

/**
 * `door` and `alarm` are events the device keeps until delivered: they may arrive late (queued
 * for the server by an external broker, or kept by the device while offline), so their `ts` is not
 * held to the clock window; their `id` is unique in the database and their `at` is checked.
 */
export const isKeptEvent = (type: string) => type === 'door' || type === 'alarm';

/** Whether the message's `ts` is within the protocol's clock window (60 s either way). */
export const clockAccepts = (message: Envelope, now = Date.now()) =>
  Math.abs(now - message.ts) <= DEVICE_CLOCK_WINDOW_MS;

/** Ids seen in the replay window, forgotten after it (both sides keep one). */
export class ReplayGuard {
  private seen = new Map<string, number>();
  private lastSweep = 0;

  /** Checks the clock window and the replay window; remembers the id when it passes. */
  check(message: Envelope, now = Date.now()): DropReason | undefined {
    if (!clockAccepts(message, now)) return 'stale';
    this.sweep(now);
    if (this.seen.has(message.id)) return 'replayed';
    this.seen.set(message.id, now);
    return undefined;
  }

  private sweep(now: number) {
    if (now - this.lastSweep < 10_000) return;
    this.lastSweep = now;
    for (const [id, at] of this.seen) {
      if (now - at <= DEVICE_REPLAY_WINDOW_MS) break; // insertion order: the rest are newer
      this.seen.delete(id);
    }
  }
}

// ---- Door codes: RFC 6238, SHA-1, 6 digits, 30 s, ±1 step ----

export const TOTP_PERIOD_S = 30;

const totpOf = (key: Buffer) =>
  new OTPAuth.TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: new OTPAuth.Secret({ buffer: new Uint8Array(key).buffer }),
  });

/** The device's door-code key: HMAC-SHA256(device secret, "totp"). */
export const deviceTotpKey = (secret: string) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update('totp').digest();
/** A member's code key for a device: HMAC-SHA256(device secret, "member:" + memberId). */
export const memberTotpKey = (secret: string, memberId: number) =>
  createHmac('sha256', Buffer.from(secret, 'utf8')).update(`member:${memberId}`).digest();

/** The code valid now and when its step ends. */
export function totpCode(key: Buffer, now = Date.now()): { code: string; expiresAt: number } {
  const code = totpOf(key).generate({ timestamp: now });
  const step = TOTP_PERIOD_S * 1000;
  return { code, expiresAt: (Math.floor(now / step) + 1) * step };
}

/** Whether a typed code is valid now, one step either side accepted. */
export const totpAccepts = (key: Buffer, code: string, now = Date.now()) =>
  /^\d{6}$/.test(code) && totpOf(key).validate({ token: code, timestamp: now, window: 1 }) !== null;
