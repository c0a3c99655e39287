/**
 * Firmware download links: `{PUBLIC_URL}{firmware/download}?id&expires&sig`, where `sig` is the hex
 * HMAC-SHA256 of `{id}.{expires}` under a key derived from SECRET_KEY. Devices fetch with a plain
 * GET and no other credential, so the link is the whole grant: it names one file and stops working
 * at `expires` (ms), and a changed byte anywhere in it fails the check.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { doorOperationEndpoints, FIRMWARE_URL_TTL_MS } from '@cowork/contract';

export interface FirmwareLinks {
  /** The link a device is sent for this file, valid FIRMWARE_URL_TTL_MS from `now`. */
  url(id: number, now?: number): string;
  /** Whether a link's parts are one this server signed and not yet expired. */
  verify(id: number, expires: number, sig: string, now?: number): boolean;
}

export function firmwareLinks(secretKey: string, publicUrl: string): FirmwareLinks {
  // Its own key: a signature made for anything else never opens a download.
  const key = createHmac('sha256', secretKey).update('firmware-download').digest();
  const sign = (id: number, expires: number) =>
    createHmac('sha256', key).update(`${id}.${expires}`).digest('hex');
  const base = publicUrl.replace(/\/+$/, '');
  return {
    url(id, now = Date.now()) {
      const expires = now + FIRMWARE_URL_TTL_MS;
      const query = new URLSearchParams({ id: String(id), expires: String(expires), sig: sign(id, expires) });
      return `${base}${doorOperationEndpoints.firmwareDownload}?${query.toString()}`;
    },
    verify(id, expires, sig, now = Date.now()) {
      if (!Number.isSafeInteger(expires) || expires <= now) return false;
      if (!/^[0-9a-f]{64}$/.test(sig)) return false;
      return timingSafeEqual(Buffer.from(sign(id, expires), 'hex'), Buffer.from(sig, 'hex'));
    },
  };
}
