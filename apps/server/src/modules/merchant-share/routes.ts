/**
 * 分账规则: the declaration's CRUD plus its rules: the merchant must exist, the window must end
 * after it starts, and two rules of one merchant and one product type never overlap in time (an
 * open end lasts forever; an end equal to the next start is no overlap). The merchant's row is
 * locked while checking and writing, so two concurrent saves cannot both pass the overlap check.
 */
import { and, asc, eq, gt, isNull, lt, ne, or, type SQL } from 'drizzle-orm';
import { fieldInvalid } from '@cowork/contract';
import { merchantShare, shareRuleText } from '@cowork/contract/resources/merchant-share';
import { merchantShares, merchants } from '../../db/schema.ts';
import { crudModule, valueAfterWrite } from '../../lib/crud.ts';
import { badRequest, conflict } from '../../lib/http.ts';

export default crudModule({
  resource: merchantShare,
  table: merchantShares,
  async prepare(values, { tx, existing }) {
    const merchantId = valueAfterWrite('merchantId', values, existing);
    const siteType = valueAfterWrite('siteType', values, existing);
    const from = valueAfterWrite('effectiveFrom', values, existing);
    const to = valueAfterWrite('effectiveTo', values, existing);

    // Locking the merchant serializes every rule write of that merchant until this transaction ends.
    const [owner] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.id, merchantId))
      .for('update');
    if (!owner) throw badRequest(fieldInvalid('商户', '所选商户不存在或已被删除，请刷新后重新选择'));

    if (to && to.getTime() <= from.getTime()) {
      throw badRequest('失效时间须晚于生效时间，请重新选择失效时间，或留空表示长期有效');
    }

    // Windows [from, to) overlap when each starts before the other ends (no end = never ends).
    const conditions: SQL[] = [
      eq(merchantShares.merchantId, merchantId),
      eq(merchantShares.siteType, siteType),
      or(isNull(merchantShares.effectiveTo), gt(merchantShares.effectiveTo, from))!,
    ];
    if (to) conditions.push(lt(merchantShares.effectiveFrom, to));
    if (existing) conditions.push(ne(merchantShares.id, existing.id));
    const [clash] = await tx
      .select()
      .from(merchantShares)
      .where(and(...conditions))
      .orderBy(asc(merchantShares.effectiveFrom))
      .limit(1);
    if (clash) {
      throw conflict(`与已有分账规则 ${shareRuleText(clash)}时间重叠，请调整生效或失效时间`);
    }
    return values;
  },
});
