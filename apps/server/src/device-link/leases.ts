/**
 * The offline lease (v1.1 `validUntil`): a device admits members and cards only until then, so a
 * door cut off from the server cannot keep admitting someone revoked meanwhile. Each sync grants
 * the lease of the device's building (buildings.device_lease_hours, 24 h unless set); before half of
 * it has run, the sweep sends each connected v1.1 device that holds its current state a `lease`
 * naming that state's version, found for all devices in one statement.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { LEASE_DEFAULT_HOURS } from '@cowork/contract';
import { rowsOf, type Database } from '../db/client.ts';
import { batchWriter } from '../lib/batch.ts';
import { AppError } from '../lib/http.ts';
import { automaticActor } from './actors.ts';
import type { Commands } from './commands.ts';

/** The lease hours of the building of a space (an SQL expression of the space's id). */
export const leaseHoursOf = (spaceId: SQL) =>
  sql`coalesce((select b.device_lease_hours from spaces s join buildings b on b.id = s.building_id
    where s.id = ${spaceId}), ${LEASE_DEFAULT_HOURS})`;

/** Renewals in flight this long are not sent again (the ack comes within 5 s). */
const IN_FLIGHT = sql.raw(`interval '10 seconds'`);
/** At most this many leases per sweep; the next sweep takes the rest. */
const BATCH = 1000;

interface Due {
  id: number | string;
  sn: string;
  name: string;
  secret: string;
  status: 'online' | 'offline';
  access_version: number | string;
  lease_hours: number | string;
}

export function createLeases({
  db,
  log,
  command,
  resync,
}: {
  db: Database;
  log: FastifyBaseLogger;
  command: Commands['command'];
  /** Devices that refused their lease (they hold another version) are sent their whole state. */
  resync: (deviceIds: number[]) => Promise<unknown>;
}) {
  const recordLease = batchWriter(async (leases: { id: number; validUntil: number }[]) => {
    const values = sql.join(
      leases.map((l) => sql`(${l.id}::int, ${new Date(l.validUntil).toISOString()}::timestamptz)`),
      sql`, `,
    );
    await db.execute(sql`update devices d set lease_until = greatest(d.lease_until, v.valid_until)
      from (values ${values}) as v(id, valid_until) where d.id = v.id`);
  });

  return {
    /** Sends a `lease` to every connected v1.1 device past half its lease; answers how many acked. */
    async renew(): Promise<number> {
      const due = await rowsOf<Due>(
        db,
        sql`
        select d.id, d.sn, d.name, d.secret, d.status, d.access_version, ${leaseHoursOf(sql`d.space_id`)} as lease_hours
        from devices d
        where d.status = 'online' and d.protocol = '1.1' and d.held_version = d.access_version
          and d.lease_until is not null
          and d.lease_until < now() + ${leaseHoursOf(sql`d.space_id`)} * interval '30 minutes'
          and not exists (select 1 from device_commands c where c.device_id = d.id and c.type = 'lease'
            and c.state = 'sent' and c.sent_at > now() - ${IN_FLIGHT})
        order by d.lease_until limit ${BATCH}`,
      );
      const refused: number[] = [];
      const sent = await Promise.allSettled(
        due.map(async (row) => {
          const id = Number(row.id);
          const validUntil = Date.now() + Number(row.lease_hours) * 3_600_000;
          const version = Number(row.access_version);
          try {
            await command({ ...row, id }, { type: 'lease', params: { version, validUntil } }, automaticActor);
          } catch (error) {
            // Acked not ok: it holds another version than its heartbeat said.
            if (error instanceof AppError && error.statusCode === 409) refused.push(id);
            throw error;
          }
          await recordLease({ id, validUntil });
        }),
      );
      for (const failed of sent.filter((r) => r.status === 'rejected'))
        log.warn({ err: failed.reason }, 'lease renewal failed');
      if (refused.length) await resync(refused);
      return sent.filter((r) => r.status === 'fulfilled').length;
    },
  };
}
