/**
 * Demo 分账规则 of the three published merchants. 氪空间联合办公's office seats had 12.00 % in
 * 2025 and 15.00 % from 2026 on: two windows that follow each other without overlapping.
 */
import { businessInstant } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { merchantShares, merchants, type siteTypeValues } from '../../db/schema.ts';

export const after = ['merchant'];

const at = (day: string) => businessInstant(day);

// [merchant, product type, basis points, from, to (exclusive) or null]
const rules: [string, (typeof siteTypeValues)[number], number, string, string | null][] = [
  ['氪空间联合办公', 'office-seat', 1200, '2025-01-01', '2026-01-01'],
  ['氪空间联合办公', 'office-seat', 1500, '2026-01-01', null],
  ['氪空间联合办公', 'meeting-room', 1500, '2026-01-01', null],
  ['氪空间联合办公', 'member-card', 800, '2025-07-01', null],
  ['梧桐树办公', 'office-seat', 1000, '2025-06-01', null],
  ['梧桐树办公', 'hall-seat', 1250, '2025-06-01', null],
  ['梧桐树办公', 'meeting-card', 600, '2025-09-01', '2026-12-31'],
  ['南山创客汇', 'activity-venue', 2000, '2025-03-01', null],
  ['南山创客汇', 'meeting-room', 1750, '2025-03-01', null],
  ['南山创客汇', 'hall-seat', 950, '2026-01-01', null],
];

export default async function seedMerchantShares(tx: Executor) {
  const owners = await tx.select({ id: merchants.id, name: merchants.name }).from(merchants);
  const idOf = new Map(owners.map((m) => [m.name, m.id]));
  await tx.insert(merchantShares).values(
    rules.map(([merchant, siteType, ratioBasisPoints, from, to]) => ({
      merchantId: idOf.get(merchant)!,
      siteType,
      ratioBasisPoints,
      effectiveFrom: at(from),
      effectiveTo: to ? at(to) : null,
    })),
  );
}
