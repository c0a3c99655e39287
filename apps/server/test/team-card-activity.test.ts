/**
 * 会议卡活动: the activity's own rules, and selling it from 新建订单 of 会议卡订单: the activity's price,
 * never oversold nor past a member's limit under parallel sales, refused with the reason, and a
 * cancel or refund gives one back. On PostgreSQL the parallel sales really race.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths } from '@cowork/contract';
import { orderPaths, teamCardOrder, userCardOrder } from '@cowork/contract/resources/order';
import {
  teamCardActivity,
  teamCardActivityMessages as messages,
} from '@cowork/contract/resources/team-card-activity';
import { buildings, members, teamCards } from '../src/db/schema.ts';
import { buildTestApp, callApi, demo, type TestApp } from './helper.ts';

const paths = resourcePaths(teamCardActivity);
const sale = orderPaths(teamCardOrder);
let t: TestApp;
let admin: Record<string, string>;
let buildingId: number;
let cardId: number;
let phones: string[];

const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();
const call = (method: string, url: string, payload?: object) => callApi(t, admin, method, url, payload);

async function activity(values: Record<string, unknown> = {}) {
  const res = await call('POST', paths.save, {
    title: `活动${Math.random().toString(36).slice(2, 8)}`,
    teamCardId: cardId,
    discountPriceFen: 80_00,
    startAt: hours(-1),
    endAt: hours(24),
    stock: 3,
    limitPerUser: 2,
    published: true,
    ...values,
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.data as { id: number; title: string };
}

const sell = (activityId: number, phone: string) =>
  call('POST', sale.save, {
    memberPhone: phone,
    productId: cardId,
    buildingId,
    payMethod: 'offline',
    activityId,
  });

const soldOf = async (id: number) => (await call('GET', `${paths.detail}/${id}`)).body.data;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
  [{ id: buildingId }] = await t.db
    .select({ id: buildings.id })
    .from(buildings)
    .orderBy(buildings.id)
    .limit(1);
  [{ id: cardId }] = await t.db
    .insert(teamCards)
    .values({
      name: '活动测试会议卡',
      faceValueFen: 200_00,
      priceFen: 100_00,
      validDays: 90,
      buildingIds: [buildingId],
      published: true,
    })
    .returning({ id: teamCards.id });
  phones = Array.from({ length: 12 }, (_, i) => `1760000${String(i).padStart(4, '0')}`);
  await t.db.insert(members).values(phones.map((phone) => ({ phone })));
});

afterAll(() => t?.close());

describe('the activity', () => {
  test('is checked: a forward window, a price at most the card’s, a card that exists', async () => {
    const backwards = await call('POST', paths.save, {
      title: '倒序活动',
      teamCardId: cardId,
      discountPriceFen: 80_00,
      startAt: hours(2),
      endAt: hours(1),
      stock: 3,
      limitPerUser: 1,
    });
    expect(backwards.status).toBe(400);
    expect(backwards.body.msg).toContain('结束时间');
    const dear = await call('POST', paths.save, {
      title: '贵价活动',
      teamCardId: cardId,
      discountPriceFen: 120_00,
      startAt: hours(1),
      endAt: hours(2),
      stock: 3,
      limitPerUser: 1,
    });
    expect(dear.status).toBe(400);
    expect(dear.body.msg).toBe(`活动价：${messages.priceAboveCard('¥100.00')}`);
    const ghost = await call('POST', paths.save, {
      title: '无卡活动',
      teamCardId: 999_999,
      discountPriceFen: 1,
      startAt: hours(1),
      endAt: hours(2),
      stock: 3,
      limitPerUser: 1,
    });
    expect(ghost.status).toBe(400);
    expect(ghost.body.msg).toContain('会议卡');
    const { id } = await activity();
    expect(await soldOf(id)).toMatchObject({ sold: 0, remaining: 3, status: 'running' });
  });

  test('the page filters by 活动状态, the window against now', async () => {
    const upcoming = await activity({ startAt: hours(30), endAt: hours(40) });
    const running = await activity();
    const ended = await activity({ startAt: hours(-5), endAt: hours(5) });
    await call('PUT', paths.edit, { id: ended.id, endAt: hours(-1) });
    const ids = async (status: string) =>
      (await call('GET', `${paths.page}?status=${status}&size=100`)).body.data.records.map(
        (r: { id: number }) => r.id,
      );
    expect(await ids('upcoming')).toContain(upcoming.id);
    expect(await ids('upcoming')).not.toContain(running.id);
    expect(await ids('running')).toContain(running.id);
    expect(await ids('running')).not.toContain(ended.id);
    expect(await ids('ended')).toContain(ended.id);
    expect(await ids('ended')).not.toContain(running.id);
    expect((await call('GET', `${paths.page}?status=soon`)).status).toBe(400);
  });
});

describe('selling it', () => {
  test('the order carries the activity’s price; paying charges exactly that', async () => {
    const { id } = await activity();
    const res = await sell(id, phones[0]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ amountFen: 100_00, discountFen: 20_00 });
    const paid = await call('PUT', sale.pay, { id: res.body.data.id });
    expect(paid.status, paid.raw).toBe(200);
    expect(paid.body.data).toMatchObject({ paidFen: 80_00, balanceFen: 200_00 });
    expect(await soldOf(id)).toMatchObject({ sold: 1, remaining: 2 });
  });

  test('新建订单 lists the activities selling the card now, soonest to end first', async () => {
    const later = await activity({ endAt: hours(48), stock: 5, limitPerUser: 3 });
    const sooner = await activity({ endAt: hours(6) });
    const hidden = await activity({ published: false });
    const listed = await call('GET', `${sale.activities}?productId=${cardId}`);
    expect(listed.status, listed.raw).toBe(200);
    const ids = listed.body.data.map((o: { value: number }) => o.value);
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id));
    expect(ids).not.toContain(hidden.id);
    expect(listed.body.data.find((o: { value: number }) => o.value === later.id)).toMatchObject({
      label: later.title,
      discountPriceFen: 80_00,
      remaining: 5,
      limitPerUser: 3,
    });
    expect((await call('GET', `${sale.activities}?productId=abc`)).status).toBe(400);
  });

  test('10 parallel sales against a stock of 3: exactly 3 sold, the others told it is sold out', async () => {
    const { id, title } = await activity({ stock: 3, limitPerUser: 1 });
    const results = await Promise.all(phones.slice(1, 11).map((phone) => sell(id, phone)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => [r.status, r.body.msg])).toEqual(
      Array.from({ length: 7 }, () => [409, messages.soldOut(title)]),
    );
    expect(await soldOf(id)).toMatchObject({ sold: 3, remaining: 0 });
  });

  test('2 parallel sales for one member with a limit of 1: exactly 1', async () => {
    const { id, title } = await activity({ stock: 10, limitPerUser: 1 });
    const results = await Promise.all([sell(id, phones[11]), sell(id, phones[11])]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.msg).toBe(messages.limitReached(title, 1));
    expect(await soldOf(id)).toMatchObject({ sold: 1, remaining: 9 });
  });

  test('refused while unpublished, before it starts and after it ends; a wrong card is a 400', async () => {
    const hidden = await activity({ published: false });
    expect((await sell(hidden.id, phones[0])).body.msg).toBe(messages.unpublished(hidden.title));
    const early = await activity({ startAt: hours(5), endAt: hours(10) });
    const tooEarly = await sell(early.id, phones[0]);
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.msg).toContain(`活动“${early.title}”尚未开始`);
    const over = await activity({ startAt: hours(-5), endAt: hours(5) });
    await call('PUT', paths.edit, { id: over.id, endAt: hours(-1) });
    expect((await sell(over.id, phones[0])).body.msg).toBe(messages.ended(over.title));
    const missing = await sell(999_999, phones[0]);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toContain('会议卡活动');
    const [other] = await t.db
      .insert(teamCards)
      .values({
        name: '另一张卡',
        faceValueFen: 100,
        priceFen: 100,
        validDays: 1,
        buildingIds: [buildingId],
        published: true,
      })
      .returning({ id: teamCards.id });
    const wrongCard = await call('POST', sale.save, {
      memberPhone: phones[0],
      productId: other.id,
      buildingId,
      payMethod: 'offline',
      activityId: early.id,
    });
    expect(wrongCard.status).toBe(400);
    expect(wrongCard.body.msg).toContain(early.title);
    // Nothing was taken by any refusal.
    for (const a of [hidden, early, over]) expect((await soldOf(a.id)).sold).toBe(0);
  });

  test('a cancel or a refund gives one back; once sold, card, price, stock and removal are guarded', async () => {
    const { id } = await activity({ stock: 2, limitPerUser: 2 });
    const first = (await sell(id, phones[0])).body.data;
    const second = (await sell(id, phones[0])).body.data;
    expect(await soldOf(id)).toMatchObject({ sold: 2, remaining: 0 });
    expect((await call('PUT', sale.cancel, { id: first.id, reason: '会员不要了' })).status).toBe(200);
    expect(await soldOf(id)).toMatchObject({ sold: 1, remaining: 1 });
    await call('PUT', sale.pay, { id: second.id });
    expect((await call('PUT', sale.refund, { id: second.id, reason: '会员退卡' })).status).toBe(200);
    expect(await soldOf(id)).toMatchObject({ sold: 0, remaining: 2 });

    await sell(id, phones[1]);
    await sell(id, phones[2]);
    const price = await call('PUT', paths.edit, { id, discountPriceFen: 70_00 });
    expect([price.status, price.body.msg]).toEqual([409, messages.soldCardFixed(2)]);
    const below = await call('PUT', paths.edit, { id, stock: 1 });
    expect([below.status, below.body.msg]).toEqual([409, messages.stockBelowSold(2)]);
    const renamed = await call('PUT', paths.edit, { id, stock: 4, title: '改名可以' });
    expect(renamed.status, renamed.raw).toBe(200);
    expect(await soldOf(id)).toMatchObject({ title: '改名可以', sold: 2, remaining: 2 });
    const removed = await call('DELETE', `${paths.remove}/${id}`);
    expect([removed.status, removed.body.msg]).toEqual([409, messages.soldCannotRemove(2)]);
    const unpublished = await call('PUT', paths.editPublished, { id, published: false });
    expect(unpublished.status).toBe(200);
    const stopped = await sell(id, phones[3]);
    expect([stopped.status, stopped.body.msg]).toEqual([409, messages.unpublished('改名可以')]);
  });

  test('an order of another kind cannot name an activity', async () => {
    const { id } = await activity();
    const res = await call('POST', orderPaths(userCardOrder).save, {
      memberPhone: phones[0],
      productId: 1,
      buildingId,
      payMethod: 'offline',
      activityId: id,
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toContain('会议卡活动');
  });
});
