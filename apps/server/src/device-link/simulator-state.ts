/**
 * How the simulated door judges what is typed or held at it, from the state of its last `sync`
 * (docs/device-protocol.md): the door code, members' codes, cards and admin passwords; and, for a
 * v1.1 device, the mode (`lockdown` admits admin passwords only, `release` keeps the door open) and
 * the offline lease (past `validUntil`, members, their codes and cards are refused).
 */
import { deviceSyncParams, type DeviceAccessState } from '@cowork/contract';
import { deviceTotpKey, memberTotpKey, totpAccepts } from './protocol.ts';
import { adminPasswordAccepts, type DeviceProtocol } from './secrets-v11.ts';

export type DeviceState = DeviceAccessState;
export type DoorResult = { result: 'success' } | { result: 'denied'; reason: string };

/** What a refused credential's door event says, as the open log shows it. */
export const refusals = {
  unregistered: '设备未注册',
  code: '动态码无效或已过期',
  cardUnknown: '卡未授权',
  cardOutside: '卡不在有效期内',
  password: '密码错误',
  lockdown: '封锁中：仅管理员密码可开门',
  leaseExpired: '离线授权已过期',
} as const;

export const emptyState = (): DeviceState => ({ access: [], adminPasswords: [], cardRules: [] });

/**
 * A sync's params as this device keeps them, or undefined when they cannot be read (the device
 * keeps what it had). A v1 device knows nothing of version, mode or validUntil and drops them.
 */
export function stateOfSync(params: unknown, protocol: DeviceProtocol | undefined): DeviceState | undefined {
  const read = deviceSyncParams.safeParse(params);
  if (!read.success) return undefined;
  if (protocol === '1.1') return read.data;
  const { access, adminPasswords, cardRules } = read.data;
  return { access, adminPasswords, cardRules };
}

const success: DoorResult = { result: 'success' };
const denied = (reason: string): DoorResult => ({ result: 'denied', reason });

/** The mode's word on a credential other than an admin password, before the state is asked. */
function modeVerdict(state: DeviceState): DoorResult | undefined {
  if (state.mode === 'release') return success;
  if (state.mode === 'lockdown') return denied(refusals.lockdown);
  return undefined;
}

const leaseExpired = (state: DeviceState, now: number) =>
  state.validUntil !== undefined && now > state.validUntil;

/** A code typed on the keypad: the device's door code, or a member's personal code. */
export function codeVerdict(state: DeviceState, secret: string | undefined, code: string, now: number) {
  if (!secret) return denied(refusals.unregistered);
  const byMode = modeVerdict(state);
  if (byMode) return byMode;
  // The door code is the device's own (staff read it in the console), not part of the synced state.
  if (totpAccepts(deviceTotpKey(secret), code, now)) return success;
  const member = state.access.find(
    (entry) =>
      now >= entry.validFrom &&
      now <= entry.validTo &&
      totpAccepts(memberTotpKey(secret, entry.memberId), code, now),
  );
  if (!member) return denied(refusals.code);
  return leaseExpired(state, now) ? denied(refusals.leaseExpired) : success;
}

/** A card held to the reader. */
export function cardVerdict(state: DeviceState, cardNo: string, now: number): DoorResult {
  const byMode = modeVerdict(state);
  if (byMode) return byMode;
  const rule = state.cardRules.find((r) => r.cardNo === cardNo);
  if (!rule) return denied(refusals.cardUnknown);
  if (now < rule.validFrom || now > rule.validTo) return denied(refusals.cardOutside);
  return leaseExpired(state, now) ? denied(refusals.leaseExpired) : success;
}

/** An administrator password: it works in lockdown and past the lease too. */
export function passwordVerdict(state: DeviceState, password: string): DoorResult {
  if (state.mode === 'release') return success;
  return state.adminPasswords.some((p) => adminPasswordAccepts(p, password))
    ? success
    : denied(refusals.password);
}

/** A remote `open-door`: refused in lockdown (the server refuses it first; the door holds anyway). */
export const remoteRefusal = (state: DeviceState): string | undefined =>
  state.mode === 'lockdown' ? 'lockdown: remote open refused' : undefined;

/**
 * A `lease`: the new validUntil when it is for the version held, else why not (the ack's error).
 */
export function leaseOf(state: DeviceState, params: Record<string, unknown>): number | { error: string } {
  const { version, validUntil } = params;
  if (typeof version !== 'number' || typeof validUntil !== 'number')
    return { error: 'lease params malformed' };
  if (state.version === undefined) return { error: 'no synced state to extend' };
  if (version !== state.version)
    return { error: `version mismatch: holds ${state.version}, lease for ${version}` };
  return validUntil;
}
