/**
 * Where a space is, as pickers and columns say it: its building and the spaces above it,
 * `望京SOHO / 3F / 大堂闸机` (the demo has a 大堂闸机 in every building, so a name alone is ambiguous).
 */
import { sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor } from '../../db/client.ts';

export interface SpacePath {
  id: number;
  buildingId: number;
  /** `楼宇 / 上级空间… / 空间`. */
  path: string;
}

/** The joiner of a path's parts, also between a device's place and its name. */
export const PATH_SEPARATOR = ' / ';

/**
 * The paths of the spaces `where` selects (a condition on the `spaces` table; every space when
 * undefined), by building and then by path, so a building's spaces read as its tree.
 */
export async function spacePaths(db: Executor, where?: SQL): Promise<SpacePath[]> {
  const rows = await rowsOf<{ id: number | string; buildingId: number | string; path: string }>(
    db,
    sql`
    with recursive up(start, parent_id, name, depth) as (
      select spaces.id, spaces.parent_id, spaces.name, 0 from spaces where ${where ?? sql`true`}
      union all
      select up.start, p.parent_id, p.name, up.depth + 1 from spaces p join up on p.id = up.parent_id
    ), paths(id, path) as (
      select start, string_agg(name, ${PATH_SEPARATOR} order by depth desc) from up group by start
    )
    select s.id, s.building_id as "buildingId", b.name || ${PATH_SEPARATOR} || paths.path as path
    from paths join spaces s on s.id = paths.id join buildings b on b.id = s.building_id
    order by b.sort, b.id, path`,
  );
  return rows.map((r) => ({ id: Number(r.id), buildingId: Number(r.buildingId), path: r.path }));
}

/** The paths of these spaces by id (an empty map for none, without asking the database). */
export async function spacePathsOf(db: Executor, ids: readonly (number | null)[]) {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map<number, SpacePath>();
  const found = await spacePaths(
    db,
    sql`spaces.id in (${sql.join(
      wanted.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return new Map(found.map((p) => [p.id, p]));
}
