/**
 * Demo 企业: two companies with space in the first two demo buildings, their contract periods,
 * invoice titles and staff lists by department (new phones become members from 企业导入 the way
 * 企业员工's add does; one existing member each). Their access groups and meeting cards follow.
 */
import { asc } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { buildings, companies, companyStaff, members } from '../../db/schema.ts';
import { memberOfPhone } from './staff.ts';

/** Members are read, and new ones get the 企业导入 source. */
export const after = ['member', 'building', 'csr-source'];

const DAY = 86_400_000;

/** The demo companies; staff phones `1770000{company}{nnn}` as the access groups had them. */
export const demoCompanies = [
  {
    name: '上海星河科技有限公司',
    creditCode: '91310000717866186P',
    contactName: '林企',
    staff: [
      ['林企', '行政部'],
      ['周晓', '研发部'],
      ['吴迪', '研发部'],
    ],
  },
  {
    name: '北京云帆文化传媒',
    creditCode: '91110108551385082Q',
    contactName: '陈帆',
    staff: [
      ['陈帆', '市场部'],
      ['赵一', '设计部'],
    ],
  },
] as const;

export default async function seedCompanies(tx: Executor) {
  const places = await tx.select({ id: buildings.id }).from(buildings).orderBy(asc(buildings.id)).limit(2);
  const known = await tx.select({ phone: members.phone }).from(members).orderBy(asc(members.id)).limit(4);
  for (const [i, demo] of demoCompanies.entries()) {
    const building = places[i % places.length];
    if (!building) return;
    const people: { name: string; phone: string; department: string | null }[] = demo.staff.map(
      ([name, department], k) => ({
        name,
        department,
        phone: `1770000${i}${String(k + 1).padStart(3, '0')}`,
      }),
    );
    const existing = known[i * 2];
    if (existing) people.push({ name: '老会员', phone: existing.phone, department: null });
    const [company] = await tx
      .insert(companies)
      .values({
        name: demo.name,
        creditCode: demo.creditCode,
        contactName: demo.contactName,
        contactPhone: people[0].phone,
        buildingIds: [building.id],
        validFrom: new Date(Date.now() - 60 * DAY),
        validTo: new Date(Date.now() + 305 * DAY),
        invoiceTitle: demo.name,
        taxNo: demo.creditCode,
      })
      .returning({ id: companies.id });
    for (const person of people) {
      const memberId = await memberOfPhone(tx, person.phone, person.name, demo.name);
      await tx.insert(companyStaff).values({
        companyId: company.id,
        memberId,
        ...person,
        joinedAt: new Date(Date.now() - 60 * DAY),
      });
    }
  }
}
