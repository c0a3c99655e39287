/**
 * 企业门禁组's webhook events (开放平台), recorded in the transaction of the change: a member added
 * to a group (one by one, bound, or imported from Excel) or taken out of it, and a member created
 * because a group named a phone no member had. A group's people follow its company's staff list
 * (all staff, departments, chosen people), so a change to the list or to the group's scope tells
 * webhooks the difference of `groupPeople` before and after (`recordPeopleChanges`).
 */
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { maskPhone } from '@cowork/contract';
import { rowsOf, type Executor } from '../../db/client.ts';
import {
  buildings,
  csrSources,
  kreatorUserGroups,
  type kreatorUsers,
  type members,
} from '../../db/schema.ts';
import { recordEvents, type RecordedEvent } from '../../lib/outbox.ts';
import { groupTakesStaff } from '../../lib/staff-scope.ts';
import { toIso } from '../../lib/time.ts';

export type GroupMember = Pick<typeof kreatorUsers.$inferSelect, 'groupId' | 'memberId' | 'name' | 'phone'>;

/**
 * The people groups take now: (group, member) of each active staff row a group's scope takes, for
 * the groups and staff rows `where` selects (on `g`, kreator_user_groups, and `s`, company_staff).
 */
export async function groupPeople(tx: Executor, where: SQL): Promise<GroupMember[]> {
  const rows = await rowsOf<{
    group_id: number | string;
    member_id: number | string;
    name: string;
    phone: string;
  }>(
    tx,
    sql`select g.id as group_id, s.member_id, s.name, s.phone
      from kreator_user_groups g join company_staff s on ${groupTakesStaff('g', 's')}
      where ${where}`,
  );
  return rows.map((r) => ({
    groupId: Number(r.group_id),
    memberId: Number(r.member_id),
    name: r.name,
    phone: r.phone,
  }));
}

/** enterprise.member.added for the pairs only `after` has, .removed for those only `before` had. */
export async function recordPeopleChanges(tx: Executor, before: GroupMember[], after: GroupMember[]) {
  const key = (p: GroupMember) => `${p.groupId}:${p.memberId}`;
  const had = new Set(before.map(key));
  const has = new Set(after.map(key));
  await recordGroupMembers(
    tx,
    'enterprise.member.removed',
    before.filter((p) => !has.has(key(p))),
  );
  await recordGroupMembers(
    tx,
    'enterprise.member.added',
    after.filter((p) => !had.has(key(p))),
  );
}

/** enterprise.member.added or .removed for these rows of groups, in one statement. */
export async function recordGroupMembers(
  tx: Executor,
  type: 'enterprise.member.added' | 'enterprise.member.removed',
  rows: readonly GroupMember[],
) {
  if (rows.length === 0) return;
  const groups = await tx
    .select({ group: kreatorUserGroups, buildingName: buildings.name })
    .from(kreatorUserGroups)
    .leftJoin(buildings, eq(buildings.id, kreatorUserGroups.buildingId))
    .where(
      inArray(
        kreatorUserGroups.id,
        rows.map((r) => r.groupId),
      ),
    );
  const byId = new Map(groups.map((g) => [g.group.id, g]));
  const at = toIso(new Date());
  const events = rows.flatMap((row): RecordedEvent[] => {
    const found = byId.get(row.groupId);
    if (!found) return [];
    const { group, buildingName } = found;
    const data = {
      groupId: group.id,
      groupName: group.name,
      companyName: group.companyName,
      buildingId: group.buildingId,
      buildingName,
      memberId: row.memberId,
      name: row.name,
      phone: maskPhone(row.phone),
    };
    return type === 'enterprise.member.added'
      ? [
          {
            type,
            data: { ...data, validFrom: toIso(group.validFrom), validTo: toIso(group.validTo), addedAt: at },
          },
        ]
      : [{ type, data: { ...data, removedAt: at } }];
  });
  await recordEvents(tx, events);
}

/** member.created for members a staff list or a group's phone has just made, in one statement. */
export async function recordMembersCreated(tx: Executor, made: readonly (typeof members.$inferSelect)[]) {
  if (made.length === 0) return;
  const sourceIds = [...new Set(made.flatMap((m) => (m.sourceId === null ? [] : [m.sourceId])))];
  const sources = sourceIds.length
    ? await tx
        .select({ id: csrSources.id, name: csrSources.name })
        .from(csrSources)
        .where(inArray(csrSources.id, sourceIds))
    : [];
  const names = new Map(sources.map((s) => [s.id, s.name]));
  await recordEvents(
    tx,
    made.map((member) => ({
      type: 'member.created' as const,
      data: {
        memberId: member.id,
        phone: maskPhone(member.phone),
        nickname: member.nickname,
        companyName: member.companyName,
        sourceId: member.sourceId,
        sourceName: member.sourceId === null ? null : (names.get(member.sourceId) ?? null),
        registeredAt: toIso(member.registeredAt),
      },
    })),
  );
}

/** member.created for a member a group's phone has just made. */
export const recordMemberCreated = (tx: Executor, member: typeof members.$inferSelect) =>
  recordMembersCreated(tx, [member]);
