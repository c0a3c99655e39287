/**
 * 封锁 (lockdown) as 远程开门 sees it: a device whose space, or one above it, is locked down refuses
 * every credential, and the server refuses to open it remotely too, unless 全部常开 (release) is set
 * anywhere above it (release wins: it is set for fire and evacuation).
 */
import { sql } from 'drizzle-orm';
import { deviceMessages } from '@cowork/contract';
import { rowsOf, type Executor } from '../../db/client.ts';
import { conflict } from '../../lib/http.ts';

/** Throws the 409 that says why, when the device is locked down; nothing otherwise. */
export async function refuseIfLockedDown(db: Executor, device: { id: number; name: string }) {
  const rows = await rowsOf<{ name: string; mode: string; mode_reason: string | null }>(
    db,
    sql`
    with recursive up(space_id, depth) as (
      select d.space_id, 0 from devices d where d.id = ${device.id} and d.space_id is not null
      union all
      select s.parent_id, up.depth + 1 from up join spaces s on s.id = up.space_id where s.parent_id is not null
    )
    select s.name, s.mode, s.mode_reason from up join spaces s on s.id = up.space_id
    where s.mode <> 'normal' order by up.depth`,
  );
  if (rows.some((r) => r.mode === 'release')) return;
  const locked = rows.find((r) => r.mode === 'lockdown');
  if (locked) throw conflict(deviceMessages.lockedDown(device.name, locked.name, locked.mode_reason));
}
