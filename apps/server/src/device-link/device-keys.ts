/**
 * The secrets a device may sign and connect with, by sn: its current one, and during a
 * reset-config the new one too. Looked up for many devices in one statement (a fleet reconnecting
 * after an outage asks at once).
 */
import { inArray } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { batchLoader } from '../lib/batch.ts';
import type { SecretBox } from '../lib/secret-box.ts';
import type { Credentials } from './rules.ts';

/** A registered device as the link hears it: its id, its name and every secret it may sign with. */
export interface DeviceKeys {
  id: number;
  name: string;
  secrets: string[];
}

export function createDeviceKeys({ db, box }: { db: Database; box: SecretBox }) {
  const deviceOf = batchLoader(async (sns: string[]) => {
    const rows = await db
      .select({
        id: devices.id,
        sn: devices.sn,
        name: devices.name,
        secret: devices.secret,
        pending: devices.pendingSecret,
      })
      .from(devices)
      .where(inArray(devices.sn, sns));
    return new Map(rows.map((r) => [r.sn, r]));
  });

  /** The device registered under this sn, or undefined when none is. */
  async function keysOf(sn: string): Promise<DeviceKeys | undefined> {
    const row = await deviceOf(sn);
    if (!row) return undefined;
    const secrets = [box.open(row.secret), ...(row.pending ? [box.open(row.pending)] : [])];
    return { id: row.id, name: row.name, secrets };
  }

  /** What an sn may connect with (the embedded broker, and an external one through mqtt-auth). */
  async function credentials(sn: string): Promise<Credentials> {
    const device = await keysOf(sn);
    return device ? { registered: true, secrets: device.secrets } : { registered: false };
  }

  return { keysOf, credentials };
}
