/**
 * Demo 企业门禁组: two companies' groups in the first two demo buildings, each with a few staff
 * (existing members, and new phones created as members from 企业导入 the way `add` does). The demo
 * door devices of each building join its group when they are registered (device-link/demo.ts).
 */
import { asc } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { buildings, kreatorUserGroups, kreatorUsers, members } from '../../db/schema.ts';
import { memberOfPhone } from './members.ts';

/** Members are read, and new ones get the 企业导入 source. */
export const after = ['member', 'building', 'csr-source'];

const DAY = 86_400_000;
const companies = [
  { name: '星河科技门禁组', companyName: '上海星河科技有限公司', staff: ['林企', '周晓', '吴迪'] },
  { name: '云帆传媒门禁组', companyName: '北京云帆文化传媒', staff: ['陈帆', '赵一'] },
];

export default async function seedKreatorGroups(tx: Executor) {
  const places = await tx.select({ id: buildings.id }).from(buildings).orderBy(asc(buildings.id)).limit(2);
  const known = await tx
    .select({ id: members.id, phone: members.phone })
    .from(members)
    .orderBy(asc(members.id))
    .limit(4);
  for (const [i, company] of companies.entries()) {
    const building = places[i % places.length];
    if (!building) return;
    const [group] = await tx
      .insert(kreatorUserGroups)
      .values({
        name: company.name,
        companyName: company.companyName,
        buildingId: building.id,
        validFrom: new Date(Date.now() - 60 * DAY),
        validTo: new Date(Date.now() + 305 * DAY),
        status: 'enabled',
      })
      .returning({ id: kreatorUserGroups.id });
    const people = company.staff.map((name, k) => ({
      name,
      phone: `1770000${i}${String(k + 1).padStart(3, '0')}`,
    }));
    const existing = known[i * 2];
    if (existing) people.push({ name: '老会员', phone: existing.phone });
    for (const person of people) {
      const memberId = await memberOfPhone(tx, person.phone, person.name, company.companyName);
      await tx.insert(kreatorUsers).values({ groupId: group.id, memberId, ...person });
    }
  }
}
