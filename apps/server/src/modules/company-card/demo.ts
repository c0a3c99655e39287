/**
 * Demo 企业会议卡: 上海星河科技's card on the 5000元企业会议卡, open to the staff of its 研发部 and
 * 行政部, with a monthly cap, opened with ¥5,000.00 and topped up once (its ledger's first two rows).
 */
import { asc, eq, like } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companies, companyCards, teamCards } from '../../db/schema.ts';
import { appendLedger, companyCardNo, creditCompanyCard } from './ledger.ts';

/** The card belongs to the first demo company and is open to staff of its departments. */
export const after = ['team-card', 'company'];

const DAY = 86_400_000;

export default async function seedCompanyCards(tx: Executor) {
  const [product] = await tx.select().from(teamCards).where(like(teamCards.name, '%企业会议卡%')).limit(1);
  if (!product) return;
  const [company] = await tx.select().from(companies).orderBy(asc(companies.id)).limit(1);
  if (!company) return;
  const [card] = await tx
    .insert(companyCards)
    .values({
      cardNo: 'QY00000000',
      companyId: company.id,
      companyName: company.name,
      staffScope: 'departments',
      departments: ['研发部', '行政部'],
      teamCardId: product.id,
      balanceFen: 500_000,
      monthlyCapFen: 200_000,
      validUntil: new Date(Date.now() + 300 * DAY),
      status: 'enabled',
    })
    .returning();
  await tx
    .update(companyCards)
    .set({ cardNo: companyCardNo(card.id) })
    .where(eq(companyCards.id, card.id));
  await appendLedger(tx, {
    cardId: card.id,
    kind: 'top-up',
    amountFen: 500_000,
    balanceAfterFen: 500_000,
    remark: '开卡充值',
    byName: '演示数据',
  });
  await creditCompanyCard(tx, card.id, {
    kind: 'top-up',
    amountFen: 300_000,
    remark: '季度预算追加',
    byName: '演示数据',
  });
}
