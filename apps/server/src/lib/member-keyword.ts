/**
 * Finding a member by what front-desk staff know (门禁权限查询, 开门记录): a phone, a name or a
 * company, typed into one box.
 *
 * @example
 *   .where(sql`${deviceOpenLogs.memberId} in (${membersMatching(keyword)})`)
 */
import { sql, type SQL } from 'drizzle-orm';
import { containsPattern, prefixPattern } from './like.ts';

/** A keyword of digits only is (the start of) a phone. */
export const isPhoneKeyword = (keyword: string) => /^\d+$/.test(keyword);

/**
 * The members a keyword names, as a select of their ids. Digits: members and staff rows whose phone
 * starts with them (by the phone prefix indexes). Anything else: a name holding it (a staff list's
 * name, a member's real name or nickname) or a company holding it (a company whose active staff the
 * member is, or the 公司名称 of the member's profile).
 */
export function membersMatching(keyword: string): SQL {
  if (isPhoneKeyword(keyword)) {
    const prefix = prefixPattern(keyword);
    return sql`select m.id from members m where m.phone like ${prefix}
      union select cs.member_id from company_staff cs where cs.phone like ${prefix}`;
  }
  const pattern = containsPattern(keyword);
  return sql`select m.id from members m
      where m.real_name ilike ${pattern} or m.nickname ilike ${pattern} or m.company_name ilike ${pattern}
    union select cs.member_id from company_staff cs where cs.name ilike ${pattern}
    union select cs.member_id from company_staff cs join companies c on c.id = cs.company_id
      where cs.status = 'active' and c.name ilike ${pattern}`;
}
