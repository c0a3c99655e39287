/**
 * A simulated door's firmware update (protocol v1.1 `firmware` command): a plain HTTP GET of the
 * file, streamed and hashed as it comes, never more than the announced size read; size and SHA-256
 * checked before anything is installed. Each step is reported through `report` as the `progress`
 * event's params; the caller restarts the device once it answers the new version.
 */
import { createHash } from 'node:crypto';
import { FIRMWARE_MAX_BYTES, type FirmwareStage } from '@cowork/contract';

export interface FirmwareOrder {
  version: string;
  url: string;
  sha256: string;
  size: number;
}

export type Progress = { stage: FirmwareStage; percent: number; error?: string };

/** A `firmware` command's params, or why they cannot be used (the ack's error). */
export function firmwareOrderOf(params: Record<string, unknown>): FirmwareOrder | { error: string } {
  const { version, url, sha256, size } = params;
  if (typeof version !== 'string' || !version) return { error: 'firmware version missing' };
  if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return { error: 'firmware url is not http(s)' };
  if (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256))
    return { error: 'firmware sha256 malformed' };
  if (typeof size !== 'number' || !Number.isInteger(size) || size <= 0 || size > FIRMWARE_MAX_BYTES)
    return { error: 'firmware size out of range' };
  return { version, url, sha256, size };
}

/** Downloads and checks the file; answers true once it may be installed (reported `installing`). */
export async function downloadFirmware(
  order: FirmwareOrder,
  report: (progress: Progress) => Promise<void>,
  options: { failCheck?: boolean; timeoutMs?: number } = {},
): Promise<boolean> {
  const fail = async (error: string) => {
    await report({ stage: 'failed', percent: 0, error });
    return false;
  };
  await report({ stage: 'downloading', percent: 0 });
  const hash = createHash('sha256');
  let received = 0;
  try {
    const response = await fetch(order.url, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 10 * 60_000),
    });
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      return fail(`download failed: HTTP ${response.status}`);
    }
    let reported = 0;
    const reader = response.body.getReader();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += chunk.value.byteLength;
      // Bounded by the announced size: a longer file is wrong, and the rest is not read.
      if (received > order.size) {
        await reader.cancel();
        return fail(`size mismatch: more than ${order.size} bytes`);
      }
      hash.update(chunk.value);
      const percent = Math.floor((received / order.size) * 100);
      if (percent >= reported + 25 && percent < 100) {
        reported = percent;
        await report({ stage: 'downloading', percent });
      }
    }
  } catch (error) {
    return fail(`download failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  await report({ stage: 'downloading', percent: 100 });
  await report({ stage: 'verifying', percent: 100 });
  if (received !== order.size) return fail(`size mismatch: ${received} bytes, expected ${order.size}`);
  const digest = hash.digest('hex');
  if (options.failCheck || digest !== order.sha256)
    return fail(`sha256 mismatch: ${options.failCheck ? 'check forced to fail' : digest}`);
  await report({ stage: 'installing', percent: 100 });
  return true;
}
