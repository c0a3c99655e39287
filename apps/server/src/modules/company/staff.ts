/**
 * A company's staff list as the modules that hang off it use it: the member of a phone (found, or
 * created from 企业导入), the company a call names (locked while its list changes, so two staff
 * changing one list at once lose nothing), and a person put on the list (企业员工's add and import,
 * and 企业门禁组's add, bind and import of chosen people).
 */
import { and, eq, sql } from 'drizzle-orm';
import { fieldInvalid } from '@cowork/contract';
import { companyMessages, staffScopeMessages } from '@cowork/contract/resources/company';
import type { Executor } from '../../db/client.ts';
import { companies, companyStaff, csrSources, members } from '../../db/schema.ts';
import { badRequest } from '../../lib/http.ts';

const ENTERPRISE_SOURCE = { name: '企业导入', code: 'enterprise' };

export type Company = typeof companies.$inferSelect;
export type Staff = typeof companyStaff.$inferSelect;
type Member = typeof members.$inferSelect;

/** The 企业导入 source's id, per transaction: an import's rows ask for it once. */
const sourceIn = new WeakMap<Executor, Promise<number | null>>();

/** The 企业导入 source, made on first use (staff may rename it; its code finds it). */
function enterpriseSourceId(tx: Executor): Promise<number | null> {
  let found = sourceIn.get(tx);
  if (!found) {
    found = (async () => {
      await tx
        .insert(csrSources)
        .values({ ...ENTERPRISE_SOURCE, sort: 99, published: true })
        .onConflictDoNothing();
      const [source] = await tx
        .select({ id: csrSources.id })
        .from(csrSources)
        .where(sql`lower(${csrSources.code}) = ${ENTERPRISE_SOURCE.code}`);
      return source?.id ?? null;
    })();
    sourceIn.set(tx, found);
  }
  return found;
}

/**
 * The member with this phone, created (企业导入, the company's name) when there is none; `created`
 * hears of a member made (staff's changes tell webhooks, the demo's seeding does not). A disabled
 * member is refused (400 naming 手机号).
 */
export async function memberOfPhone(
  tx: Executor,
  phone: string,
  name: string,
  companyName: string,
  created?: (member: Member) => Promise<void> | void,
): Promise<number> {
  // Made at once when new (one statement a row on import); else the one there is read.
  const [made] = await tx
    .insert(members)
    .values({
      phone,
      nickname: name,
      realName: name || null,
      companyName,
      sourceId: await enterpriseSourceId(tx),
    })
    .onConflictDoNothing()
    .returning();
  if (made) {
    await created?.(made);
    return made.id;
  }
  const [member] = await tx
    .select({ id: members.id, status: members.status })
    .from(members)
    .where(eq(members.phone, phone));
  if (member.status !== 'enabled')
    throw badRequest(fieldInvalid('手机号', companyMessages.memberDisabled(phone)));
  return member.id;
}

/** The company a call names, or a 400 naming 企业. */
export async function findCompany(tx: Executor, id: number): Promise<Company> {
  const [company] = await tx.select().from(companies).where(eq(companies.id, id));
  if (!company) throw badRequest(fieldInvalid('企业', staffScopeMessages.companyMissing));
  return company;
}

/**
 * The company a call names, its row locked until the transaction ends: changes to one company's
 * staff list run one after another, each seeing the other's rows. 400 naming 企业 when missing.
 */
export async function lockCompany(tx: Executor, id: number): Promise<Company> {
  const [company] = await tx.select().from(companies).where(eq(companies.id, id)).for('update');
  if (!company) throw badRequest(fieldInvalid('企业', staffScopeMessages.companyMissing));
  return company;
}

/**
 * The company's staff row of this member, put on the list (在职, joined now) when absent. A person
 * who has left is refused (400): they come back through 企业员工's add, which says so.
 */
export async function staffOfMember(
  tx: Executor,
  company: Pick<Company, 'id' | 'name'>,
  person: { memberId: number; name: string; phone: string },
  by: number | null,
): Promise<Staff> {
  const [made] = await tx
    .insert(companyStaff)
    .values({ companyId: company.id, ...person, createdBy: by, updatedBy: by })
    .onConflictDoNothing()
    .returning();
  if (made) return made;
  const [found] = await tx
    .select()
    .from(companyStaff)
    .where(and(eq(companyStaff.companyId, company.id), eq(companyStaff.memberId, person.memberId)));
  if (found.status !== 'active')
    throw badRequest(fieldInvalid('手机号', companyMessages.hasLeft(found.name, company.name)));
  return found;
}
