/**
 * Time and peak memory of the streamed Excel export of 100 000 member-card orders, against two
 * references measured in the same run: the export of 10 000 orders (memory should stay flat as the
 * list grows tenfold) and a plain SELECT of the same 100 000 rows into an array (what a
 * non-streamed export would hold before writing a single cell). The download is read over HTTP and
 * discarded, so only the server's memory counts.
 */
import { sql } from 'drizzle-orm';
import { orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { members, orders } from '../apps/server/src/db/schema.ts';
import { summarise } from './results.ts';
import { startServer } from './server.ts';

const LARGE = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const SMALL = LARGE / 10;
const LARGE_PHONE = '18800000100';
const SMALL_PHONE = '18800000010';

export interface Measured {
  ms: number;
  /** Peak growth over the baseline taken just before, in MB. */
  rssMb: number;
  heapMb: number;
}

/** Runs `work` while sampling process memory every 10 ms; reports its time and peak growth. */
async function measure(work: () => Promise<unknown>): Promise<Measured> {
  globalThis.gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const timer = setInterval(sample, 10);
  const started = performance.now();
  // Kept until the last sample, so an array the work returns is counted in its peak.
  const result = await work();
  const ms = performance.now() - started;
  sample();
  clearInterval(timer);
  if (result === undefined) throw new Error('the measured work answered nothing');
  const mb = (bytes: number) => bytes / 1024 / 1024;
  return { ms, rssMb: mb(peakRss - base.rss), heapMb: mb(peakHeap - base.heapUsed) };
}

export async function exportMemory() {
  const server = await startServer();
  const db = server.handle.db;
  const [buyer] = await db.select({ id: members.id }).from(members).limit(1);
  for (const [phone, count] of [
    [LARGE_PHONE, LARGE],
    [SMALL_PHONE, SMALL],
  ] as const) {
    await db.execute(sql`
      insert into orders (kind, order_no, member_id, member_phone, product_id, product_snapshot,
                          amount_fen, discount_fen, paid_fen, pay_method, status, referrer_phone,
                          remark, created_at, paid_at)
      select 'user-card', 'B' || ${phone} || lpad(n::text, 7, '0'), ${buyer.id}, ${phone}, 1,
             jsonb_build_object('name', '北京通用月卡', 'buildingName', '国贸大厦'),
             159900, 900, 159000, 'wechat', 'paid', '13800001111', '线下续费，客户要求开票',
             now() - n * interval '1 minute', now() - n * interval '1 minute'
      from generate_series(1, ${count}) as n`);
  }

  // Reads the download to its end, keeping only the byte count.
  const download = async (phone: string) => {
    const res = await fetch(`${server.url}${orderPaths(userCardOrder).export}?memberPhone=${phone}`, {
      headers: server.headers,
    });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}`);
    const reader = res.body.getReader();
    let bytes = 0;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      bytes += chunk.value.length;
    return bytes;
  };
  const selectAll = () =>
    db
      .select()
      .from(orders)
      .where(sql`${orders.memberPhone} = ${LARGE_PHONE}`);

  await download(SMALL_PHONE); // warm-up
  const small = await measure(() => download(SMALL_PHONE));
  const larges: Measured[] = [];
  for (let i = 0; i < 3; i++) larges.push(await measure(() => download(LARGE_PHONE)));
  const select = await measure(selectAll);
  const bytes = await download(LARGE_PHONE);

  await server.close();
  const large = [...larges].sort((a, b) => a.rssMb - b.rssMb)[1];
  return {
    engine: server.handle.engine,
    rows: LARGE,
    bytes,
    small,
    large,
    larges,
    select,
    result: summarise(
      `export.${LARGE / 1000}k.rss-growth-mb`,
      'MB',
      larges.map((m) => m.rssMb),
    ),
  };
}
