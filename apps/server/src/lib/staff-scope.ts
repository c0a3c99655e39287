/**
 * Whom a 企业门禁组 or a 企业会议卡 takes from its company's staff list, as one SQL predicate each:
 * an active staff row of the company, and the holder's `staff_scope` takes it (all, its department
 * among `departments`, or chosen: a kreator_users row for a group, its phone in `member_phones` for
 * a card). Every reader of "who is in" uses these, so a person who leaves drops out everywhere.
 *
 * @example
 *   sql`select s.member_id from kreator_user_groups g join company_staff s on ${groupTakesStaff('g', 's')}`
 */
import { sql, type SQL } from 'drizzle-orm';

/** A table alias of the query the predicate goes into (a plain identifier, never input). */
const alias = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not an SQL alias: ${name}`);
  return sql.raw(name);
};

function takes(holder: string, staff: string, chosen: SQL): SQL {
  const h = alias(holder);
  const s = alias(staff);
  return sql`(${s}.company_id = ${h}.company_id and ${s}.status = 'active' and (${h}.staff_scope = 'all'
    or (${h}.staff_scope = 'departments' and ${s}.department = any(${h}.departments))
    or (${h}.staff_scope = 'people' and ${chosen})))`;
}

/** Whether access group `group` (kreator_user_groups) takes staff row `staff` (company_staff). */
export const groupTakesStaff = (group: string, staff: string) =>
  takes(
    group,
    staff,
    sql`exists (select 1 from kreator_users ku where ku.group_id = ${alias(group)}.id and ku.staff_id = ${alias(staff)}.id)`,
  );

/** Whether company card `card` (company_cards) is open to staff row `staff` (company_staff). */
export const cardTakesStaff = (card: string, staff: string) =>
  takes(card, staff, sql`${alias(staff)}.phone = any(${alias(card)}.member_phones)`);
