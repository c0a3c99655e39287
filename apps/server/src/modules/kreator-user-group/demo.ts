/**
 * Demo 企业门禁组: a group for each demo company in its building. 上海星河科技's takes all its
 * active staff (a new hire gets the doors at once); 北京云帆文化传媒's takes chosen people. The demo
 * door devices of each building join its group when they are registered (device-link/demo.ts).
 */
import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companies, companyStaff, kreatorUserGroups, kreatorUsers } from '../../db/schema.ts';

/** The groups belong to the demo companies and choose from their staff. */
export const after = ['company'];

const DAY = 86_400_000;
const groups = [
  { name: '星河科技门禁组', staffScope: 'all' as const },
  { name: '云帆传媒门禁组', staffScope: 'people' as const },
];

export default async function seedKreatorGroups(tx: Executor) {
  const owners = await tx.select().from(companies).orderBy(asc(companies.id)).limit(groups.length);
  for (const [i, company] of owners.entries()) {
    const { name, staffScope } = groups[i];
    const [group] = await tx
      .insert(kreatorUserGroups)
      .values({
        name,
        companyId: company.id,
        companyName: company.name,
        staffScope,
        buildingId: company.buildingIds[0],
        validFrom: new Date(Date.now() - 60 * DAY),
        validTo: new Date(Date.now() + 305 * DAY),
        status: 'enabled',
      })
      .returning({ id: kreatorUserGroups.id });
    if (staffScope !== 'people') continue;
    const staff = await tx
      .select()
      .from(companyStaff)
      .where(eq(companyStaff.companyId, company.id))
      .orderBy(asc(companyStaff.id));
    await tx.insert(kreatorUsers).values(
      staff.map((s) => ({
        groupId: group.id,
        staffId: s.id,
        memberId: s.memberId,
        name: s.name,
        phone: s.phone,
      })),
    );
  }
}
