/**
 * Demo 企业会议卡: 上海星河科技's card on the 5000元企业会议卡, for the staff of its access group,
 * with a monthly cap, opened with ¥5,000.00 and topped up once (its ledger's first two rows).
 */
import { eq, like } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { companyCards, kreatorUsers, teamCards } from '../../db/schema.ts';
import { appendLedger, companyCardNo, creditCompanyCard } from './ledger.ts';

/** The card's staff are the demo access group's. */
export const after = ['team-card', 'kreator-user-group'];

const DAY = 86_400_000;

export default async function seedCompanyCards(tx: Executor) {
  const [product] = await tx.select().from(teamCards).where(like(teamCards.name, '%企业会议卡%')).limit(1);
  if (!product) return;
  const staff = await tx.select({ phone: kreatorUsers.phone }).from(kreatorUsers).limit(3);
  const [card] = await tx
    .insert(companyCards)
    .values({
      cardNo: 'QY00000000',
      companyName: '上海星河科技有限公司',
      teamCardId: product.id,
      balanceFen: 500_000,
      memberPhones: staff.map((s) => s.phone),
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
