/**
 * The emergency mode each device is in: its space's, or one above it (a building's lockdown covers
 * its floors and rooms). 全部常开 (release) wins over 封锁 (lockdown) anywhere in the chain: it is
 * set for fire and evacuation, when a locked door would trap people.
 */
import { sql } from 'drizzle-orm';
import type { SpaceMode } from '@cowork/contract';
import { rowsOf, type Executor } from '../db/client.ts';

/** The mode of each of these devices (normal for a device in no space or one not found). */
export async function deviceModesOf(
  db: Executor,
  deviceIds: readonly number[],
): Promise<Map<number, SpaceMode>> {
  const modes = new Map<number, SpaceMode>(deviceIds.map((id) => [id, 'normal']));
  if (deviceIds.length === 0) return modes;
  const rows = await rowsOf<{ device_id: number | string; released: boolean; locked: boolean }>(
    db,
    sql`
    with recursive up(device_id, space_id) as (
      select d.id, d.space_id from devices d
      where d.id in (${sql.join(
        deviceIds.map((id) => sql`${id}::int`),
        sql`, `,
      )}) and d.space_id is not null
      union all
      select up.device_id, s.parent_id from up join spaces s on s.id = up.space_id where s.parent_id is not null
    )
    select up.device_id, bool_or(s.mode = 'release') as released, bool_or(s.mode = 'lockdown') as locked
    from up join spaces s on s.id = up.space_id
    where s.mode <> 'normal'
    group by up.device_id`,
  );
  for (const row of rows)
    modes.set(Number(row.device_id), row.released ? 'release' : row.locked ? 'lockdown' : 'normal');
  return modes;
}
