/**
 * 商户管理: the declaration's CRUD. Bank account numbers are answered in full only to staff who
 * may edit merchants; a merchant that buildings or share rules still use cannot be removed (it is
 * unpublished instead).
 */
import { asc, count, eq } from 'drizzle-orm';
import { resourcePermissions } from '@cowork/contract';
import { maskBankAccount, merchant } from '@cowork/contract/resources/merchant';
import { buildings, merchantShares, merchants } from '../../db/schema.ts';
import { crudModule } from '../../lib/crud.ts';
import { hasPermission } from '../../plugins/auth.ts';

const permissions = resourcePermissions(merchant);

export default crudModule({
  resource: merchant,
  table: merchants,
  present(row, request) {
    const full = request.user !== null && hasPermission(request.user, permissions.edit);
    return full ? row : { ...row, bankAccountNo: maskBankAccount(row.bankAccountNo) };
  },
  async inUse(id, tx) {
    const usedBy = await tx
      .select({ name: buildings.name })
      .from(buildings)
      .where(eq(buildings.merchantId, id))
      .orderBy(asc(buildings.sort), asc(buildings.id));
    const [{ rules }] = await tx
      .select({ rules: count() })
      .from(merchantShares)
      .where(eq(merchantShares.merchantId, id));
    if (usedBy.length === 0 && rules === 0) return undefined;
    const [{ name }] = await tx.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, id));
    const uses = [
      ...(usedBy.length > 0
        ? [`${usedBy.length} 个楼宇（${usedBy[0].name}${usedBy.length > 1 ? ' 等' : ''}）`]
        : []),
      ...(rules > 0 ? [`${rules} 条分账规则`] : []),
    ];
    return `商户“${name}”下还有 ${uses.join('和 ')}，不能删除；请先处理这些记录，或将商户下架`;
  },
});
