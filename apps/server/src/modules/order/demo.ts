/**
 * Demo orders of every kind over the last 365 days, bought by demo members from the demo products:
 * 会员卡 and 会议卡 (card number and validity; a meeting card's balance is its face value minus the
 * active bookings it paid), 工位 for a period of days or months, 会议室 and 活动场地 bookings laid
 * one after another per room inside its opening hours (never overlapping, at least its minimum
 * length; some paid by a meeting card of the same member), and 机场贵宾厅 without a building. Each
 * order has the times and timeline events its status implies. Deterministic (a seeded generator)
 * and fast: multi-row inserts in batches.
 *
 * How many: DEMO_ORDERS (default 3000) when the demo is loaded; `npm run seed:demo -- --orders N`
 * adds N more to an existing demo (apps/server/src/seed/cli.ts).
 */
import type { OrderKind } from '@cowork/contract/resources/order';
import { keysOf } from '@cowork/contract';
import type { Executor } from '../../db/client.ts';
import { members, orderEvents, orders } from '../../db/schema.ts';
import { bookingDrafts } from './demo-bookings.ts';
import { catalog, kindWeights } from './demo-catalog.ts';
import { demoRun, otherDrafts, teamCardDrafts, type Draft, type OrderRow } from './demo-drafts.ts';
import { DAY, generator, insertRows, MINUTE, tools, type Random } from './demo-tools.ts';
import { formatOrderNo, reserveOrderIds } from './order-number.ts';

export { generator } from './demo-tools.ts';

export const after = ['member', 'building', 'user-card', 'team-card', 'seat', 'station', 'airport-product'];

export const DEFAULT_DEMO_ORDERS = 3000;
/** Orders per member the seed keeps to at most, adding members when asked for more orders. */
const ORDERS_PER_MEMBER = 100;
/** Rows per INSERT (the orders table has ~30 columns; PostgreSQL takes 65 535 parameters). */
const BATCH = 1000;

/** The order count of the demo: DEMO_ORDERS, a whole number, default 3000. */
export function demoOrderCount(env: Record<string, string | undefined> = process.env): number {
  const raw = env.DEMO_ORDERS?.trim();
  if (raw === undefined || raw === '') return DEFAULT_DEMO_ORDERS;
  if (!/^\d+$/.test(raw)) {
    throw new Error(`DEMO_ORDERS must be a whole number of demo orders (0 or more), not "${raw}"`);
  }
  return Number(raw);
}

/** Set by the seed:demo command to print progress while the demo is loaded. */
export const demoOrderProgress: { report?: (done: number, total: number) => void } = {};

const surnames = [
  ...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
];
const givenChars = [
  ...'伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍建红鹏宇浩然子涵欣怡梓轩一诺思雨晨阳佳琪俊文博雅婷天佑嘉怡',
];
const phonePrefixes = [
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '157',
  '158',
  '159',
  '177',
  '182',
  '183',
  '187',
  '188',
  '199',
];

/**
 * Makes sure there is a member for every ORDERS_PER_MEMBER orders of `count`, adding members with
 * generated phones and names registered over the last two years. Returns how many were added.
 */
export async function addDemoMembers(tx: Executor, count: number, random: Random): Promise<number> {
  const existing = await tx.select({ phone: members.phone }).from(members);
  const wanted = Math.ceil(count / ORDERS_PER_MEMBER) - existing.length;
  if (wanted <= 0) return 0;
  const { pick, int } = tools(random);
  const taken = new Set(existing.map((m) => m.phone));
  const now = Date.now();
  const rows: (typeof members.$inferInsert)[] = [];
  while (rows.length < wanted) {
    const phone = `${pick(phonePrefixes)}${String(int(0, 99_999_999)).padStart(8, '0')}`;
    if (taken.has(phone)) continue;
    taken.add(phone);
    const name = pick(surnames) + pick(givenChars) + (random() < 0.6 ? pick(givenChars) : '');
    rows.push({
      phone,
      nickname: name,
      realName: random() < 0.5 ? name : null,
      registeredAt: new Date(now - int(30, 730) * DAY - int(0, 600) * MINUTE),
    });
  }
  for (let i = 0; i < rows.length; i += BATCH) await insertRows(tx, members, rows.slice(i, i + BATCH));
  return rows.length;
}

export interface AddedOrders {
  orders: number;
  events: number;
  byKind: Record<string, number>;
}

/**
 * Adds `count` demo orders (with their events) to whatever demo data the database holds: bookings
 * go into time the rooms' existing active bookings leave free. Returns what was written.
 */
export async function addDemoOrders(
  tx: Executor,
  options: { count: number; seed?: number; onProgress?: (done: number, total: number) => void },
): Promise<AddedOrders> {
  const { count } = options;
  const none = { orders: 0, events: 0, byKind: {} };
  if (count <= 0) return none;
  const random = generator(options.seed ?? 20261121);
  await addDemoMembers(tx, count, random);
  const c = await catalog(tx);
  if (c.buyers.length === 0) return none;

  const run = demoRun(random, c);
  const { drafts } = run;

  // ---- bookings first: rooms have limited time, so they decide how many they take ----
  const weightOf = (kind: OrderKind, available: boolean) => (available ? kindWeights[kind] : 0);
  const available: Record<OrderKind, boolean> = {
    'user-card': c.userCardRows.length > 0,
    'team-card': c.teamCardRows.length > 0,
    'office-seat': c.seats['office-seat'].length > 0,
    'hall-seat': c.seats['hall-seat'].length > 0,
    'office-station': c.rooms.some((r) => r.kind === 'office-station'),
    'activity-station': c.rooms.some((r) => r.kind === 'activity-station'),
    airport: c.lounges.length > 0,
  };
  const kinds = keysOf(kindWeights);
  const totalWeight = kinds.reduce((s, k) => s + weightOf(k, available[k]), 0);
  if (totalWeight === 0) return none;
  const wantedOf = (kind: OrderKind, of: number, weightSum: number) =>
    Math.floor((of * weightOf(kind, available[kind])) / weightSum);

  // Meeting cards are generated before bookings so bookings can be paid with them.
  const cards = teamCardDrafts(run, wantedOf('team-card', count, totalWeight));

  await bookingDrafts(tx, run, (kind) => wantedOf(kind, count, totalWeight), cards);

  // ---- the other kinds share what the bookings left ----
  const rest = count - drafts.length;
  const restKinds = kinds.filter((k) => !['team-card', 'office-station', 'activity-station'].includes(k));
  const restWeight = restKinds.reduce((s, k) => s + weightOf(k, available[k]), 0);
  const plan: OrderKind[] = [];
  for (const kind of restKinds)
    plan.push(...new Array<OrderKind>(wantedOf(kind, rest, restWeight || 1)).fill(kind));
  // Rounding leftovers (or kinds with nothing to sell) go to the first kind there is a product of.
  const fallback = restKinds.find((k) => available[k]);
  while (fallback && plan.length < rest) plan.push(fallback);

  otherDrafts(run, plan);

  // Cards' balances after the bookings they paid.
  for (const card of cards) card.draft!.row.balanceFen = card.balance;

  // Oldest first, so ids and order numbers grow with time as they would in production; a card is
  // paid before any booking it pays for, so it is inserted (and referable) first.
  drafts.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const ids = await reserveOrderIds(tx, drafts.length);
  const idOf = new Map<Draft, number>(drafts.map((d, i) => [d, ids[i]]));
  let events = 0;
  const byKind: Record<string, number> = {};
  for (let from = 0; from < drafts.length; from += BATCH) {
    const batch = drafts.slice(from, from + BATCH);
    const rows: OrderRow[] = batch.map((d) => {
      const id = idOf.get(d)!;
      const orderNo = formatOrderNo(d.kind, id, d.createdAt);
      byKind[d.kind] = (byKind[d.kind] ?? 0) + 1;
      return {
        ...d.row,
        id,
        orderNo,
        cardNo: d.hasCard ? `K${orderNo}` : null,
        cardOrderId: d.paidBy ? idOf.get(d.paidBy.draft!)! : null,
      };
    });
    await insertRows(tx, orders, rows);
    const eventRows = batch.flatMap((d) => d.events.map((e) => ({ ...e, orderId: idOf.get(d)! })));
    await insertRows(tx, orderEvents, eventRows);
    events += eventRows.length;
    options.onProgress?.(Math.min(from + BATCH, drafts.length), drafts.length);
  }
  return { orders: drafts.length, events, byKind };
}

export default async function seedOrders(tx: Executor) {
  await addDemoOrders(tx, { count: demoOrderCount(), onProgress: demoOrderProgress.report });
}
