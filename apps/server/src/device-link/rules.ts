/**
 * Who may connect and which topics they may use: the protocol's credentials and topic rules, one
 * implementation for the embedded broker (broker.ts) and for an external broker that asks over
 * HTTP (modules/mqtt-auth, EMQX's HTTP authenticator and authorizer).
 *
 * - Client id = username = sn (DEVICE_SN_PATTERN); the password is the device secret (its current
 *   one or the one a reset-config is switching to), or the enrolment key for an sn not registered.
 * - A device publishes only on `devices/{sn}/evt` and `devices/{sn}/status`, and subscribes only to
 *   `devices/{sn}/cmd`; an enrolling device may publish nothing but `hello` (checked on the payload
 *   where the broker has it; the server believes nothing else from it either way).
 * - Only `status` is kept retained, and its payload is a few bytes (`{"online":true}`): a retained
 *   message stays in the broker's memory for good, so nothing else may be one.
 */
import crypto from 'node:crypto';
import { DEVICE_MAX_PAYLOAD_BYTES, DEVICE_SN_PATTERN } from '@cowork/contract';
import { parseTopic } from './protocol.ts';
import { propertyOf } from '../lib/unknown.ts';

/** What a connecting sn may use as its password. */
export type Credentials = { registered: true; secrets: string[] } | { registered: false };

export type DeviceRole = 'device' | 'enrol';

/** `{"online":false}` is 16 bytes; room for whitespace, never for data. */
export const STATUS_MAX_PAYLOAD_BYTES = 64;

/** Compares secrets in constant time in their content (their lengths are public). */
export const equalText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

/** The role these credentials connect as, or undefined when they are refused. */
export async function roleOf(
  login: { clientId: string; username: string | undefined; password: string | undefined },
  credentials: (sn: string) => Promise<Credentials>,
  enrolKey: string,
): Promise<DeviceRole | undefined> {
  const sn = login.clientId;
  if (!DEVICE_SN_PATTERN.test(sn) || login.username !== sn || !login.password) return undefined;
  const known = await credentials(sn);
  if (known.registered)
    return known.secrets.some((s) => equalText(s, login.password!)) ? 'device' : undefined;
  return equalText(enrolKey, login.password) ? 'enrol' : undefined;
}

/** Why a device may not publish this (undefined: it may). `payload` when the broker has it. */
export function publishRefusal(
  role: DeviceRole,
  sn: string,
  topicName: string,
  payload?: Buffer | string,
): 'topic' | 'oversized' | 'enrol-only-hello' | undefined {
  const topic = parseTopic(topicName);
  if (!topic || topic.sn !== sn || topic.kind === 'cmd') return 'topic';
  const max = topic.kind === 'status' ? STATUS_MAX_PAYLOAD_BYTES : DEVICE_MAX_PAYLOAD_BYTES;
  if (payload !== undefined && Buffer.byteLength(payload) > max) return 'oversized';
  if (role === 'enrol' && (topic.kind !== 'evt' || (payload !== undefined && !isHello(payload))))
    return 'enrol-only-hello';
  return undefined;
}

/** Whether a message on this topic may be kept retained: `status` alone (the protocol's one). */
export const retainAllowed = (topicName: string) => parseTopic(topicName)?.kind === 'status';

/** Whether a device may subscribe to this filter: its own command topic, nothing else. */
export function subscribeAllowed(sn: string, filter: string): boolean {
  const topic = parseTopic(filter);
  return Boolean(topic && topic.sn === sn && topic.kind === 'cmd');
}

function isHello(payload: Buffer | string): boolean {
  try {
    return propertyOf(JSON.parse(payload.toString()), 'type') === 'hello';
  } catch {
    return false;
  }
}
