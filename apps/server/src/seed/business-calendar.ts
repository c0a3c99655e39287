/**
 * Keeps the database's business days in the configured zone (BUSINESS_TIME_ZONE): order_day_totals
 * counts days in business_calendar's zone, so when the setting changed since the last start, the
 * new zone is written there and the totals are counted again, in one transaction. Writers of
 * orders wait meanwhile (SHARE lock), so no order is counted in the old zone after the change.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { businessCalendar } from '../db/schema.ts';

/** Answers whether the zone changed (and the totals were counted again). */
export async function alignBusinessCalendar(db: Database, zone: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(businessCalendar).where(eq(businessCalendar.id, 1)).for('update');
    if (row?.timeZone === zone) return false;
    await tx.execute(sql`lock table orders in share mode`);
    await tx
      .insert(businessCalendar)
      .values({ id: 1, timeZone: zone })
      .onConflictDoUpdate({ target: businessCalendar.id, set: { timeZone: zone } });
    await tx.execute(sql`select order_day_totals_rebuild()`);
    return true;
  });
}
