/**
 * What a company gives a person through its staff list, started and ended. `endStaff` runs in the
 * transaction that marks people 离职 or removes them, before they change: it finds every group and
 * card that takes them (whatever the scope), takes them out of the groups' chosen people and the
 * cards' chosen phones (each audited), and tells webhooks which groups they left. `staffJoined`
 * tells webhooks which groups took people added to the list (all staff, their departments).
 */
import { and, arrayOverlaps, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { companyCard } from '@cowork/contract/resources/company-card';
import { kreatorUser } from '@cowork/contract/resources/kreator';
import { rowsOf, type Executor } from '../../db/client.ts';
import { companyCards, kreatorUserGroups, kreatorUsers } from '../../db/schema.ts';
import { auditMany, type AuditEntry } from '../../lib/audit.ts';
import { cardTakesStaff } from '../../lib/staff-scope.ts';
import { groupPeople, recordGroupMembers } from '../kreator-user-group/webhook-events.ts';
import type { Staff } from './staff.ts';

const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );

/** What ended for people leaving: the groups' and cards' names, and the groups to re-sync. */
export interface Ended {
  groups: string[];
  cards: string[];
  groupIds: number[];
}

export async function endStaff(
  tx: Executor,
  request: FastifyRequest,
  rows: readonly Staff[],
): Promise<Ended> {
  if (rows.length === 0) return { groups: [], cards: [], groupIds: [] };
  const ids = rows.map((r) => r.id);
  const people = await groupPeople(tx, sql`s.id in (${idList(ids)})`);
  const groupIds = [...new Set(people.map((p) => p.groupId))];
  const groups = groupIds.length
    ? await tx
        .select({ name: kreatorUserGroups.name })
        .from(kreatorUserGroups)
        .where(inArray(kreatorUserGroups.id, groupIds))
        .orderBy(asc(kreatorUserGroups.id))
    : [];
  const cards = await rowsOf<{ card_no: string }>(
    tx,
    sql`select distinct k.id, k.card_no from company_cards k join company_staff s on ${cardTakesStaff('k', 's')}
      where s.id in (${idList(ids)}) order by k.id`,
  );

  const dropped = await tx.delete(kreatorUsers).where(inArray(kreatorUsers.staffId, ids)).returning();
  const entries: AuditEntry[] = dropped.map((row) => ({
    action: 'remove',
    resource: kreatorUser.key,
    resourceId: row.id,
    before: row,
  }));
  // Each company's cards lose its leavers' phones (another company's card may list the same person).
  for (const companyId of new Set(rows.map((r) => r.companyId))) {
    const phones = rows.filter((r) => r.companyId === companyId).map((r) => r.phone);
    const listing = await tx
      .select({ id: companyCards.id, memberPhones: companyCards.memberPhones })
      .from(companyCards)
      .where(and(eq(companyCards.companyId, companyId), arrayOverlaps(companyCards.memberPhones, phones)));
    for (const card of listing) {
      const memberPhones = card.memberPhones.filter((p) => !phones.includes(p));
      await tx
        .update(companyCards)
        .set({ memberPhones, updatedAt: new Date(), updatedBy: request.user?.id ?? null })
        .where(eq(companyCards.id, card.id));
      entries.push({
        action: 'edit',
        resource: companyCard.key,
        resourceId: card.id,
        before: { companyId, memberPhones: card.memberPhones },
        after: { companyId, memberPhones },
      });
    }
  }
  await auditMany(request, entries, tx);
  await recordGroupMembers(tx, 'enterprise.member.removed', people);
  return { groups: groups.map((g) => g.name), cards: cards.map((c) => c.card_no), groupIds };
}

/** enterprise.member.added for the groups that take these people now; answers those groups' ids. */
export async function staffJoined(tx: Executor, staffIds: readonly number[]): Promise<number[]> {
  if (staffIds.length === 0) return [];
  const people = await groupPeople(tx, sql`s.id in (${idList(staffIds)})`);
  await recordGroupMembers(tx, 'enterprise.member.added', people);
  return [...new Set(people.map((p) => p.groupId))];
}
