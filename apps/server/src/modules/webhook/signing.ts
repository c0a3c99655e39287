/**
 * Our webhook signatures (docs/webhooks.md): `Cowork-Signature: t=<unix seconds>,v1=<hex>` where
 * v1 is HMAC-SHA256(secret, `${t}.${body}`). The timestamp is signed, so a captured call cannot be
 * replayed later (receivers refuse an old `t`); after a rotation both secrets sign for a day, one
 * `v1=` each, so a receiver can change its secret without losing a delivery.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@cowork/contract/resources/webhook';

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export const newSigningSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;

export const signatureOf = (secret: string, t: number, body: string) =>
  createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex');

/** The header's value: one `v1=` per secret still signing, the current one first. */
export function signatureHeader(secrets: readonly string[], body: string, at: Date = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${signatureOf(secret, t, body)}`)].join(',');
}
