import {
  expect,
  test,
  type APIRequestContext,
  type Locator,
  type Page as PlaywrightPage,
} from '@playwright/test';
import { formatYuan, prefixes, resourcePaths, type Page as Paged } from '@cowork/contract';
import { member } from '@cowork/contract/resources/member';
import {
  officeStationOrder,
  orderPaths,
  teamCardOrder,
  userCardOrder,
  type PayingCardOption,
  type OrderDetail,
  type OrderProductOption,
} from '@cowork/contract/resources/order';
import { bearerOf, choose, demo, signIn } from './helpers';

const room = orderPaths(officeStationOrder);
const meetingCard = orderPaths(teamCardOrder);
const DAY = 86_400_000;

/** The Shanghai calendar day `n` days from now. */
const dayIn = (n: number) => new Date(Date.now() + 8 * 3_600_000 + n * DAY).toISOString().slice(0, 10);
const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A demo member, a published meeting room and a published meeting card sold in the room's building. */
async function fixtures(request: APIRequestContext, headers: Record<string, string>) {
  const members = await request.get(`${resourcePaths(member).page}?size=1`, { headers });
  const [buyer] = ((await members.json()).data as Paged<{ phone: string }>).records;
  const rooms = (await (await request.get(room.products, { headers })).json()).data as OrderProductOption[];
  const cards = (await (await request.get(meetingCard.products, { headers })).json())
    .data as OrderProductOption[];
  const pair = rooms
    .flatMap((r) => cards.map((c) => ({ room: r, card: c })))
    .find(({ room: r, card: c }) => c.buildingIds.includes(r.buildingIds[0]));
  expect(buyer, 'the demo holds a member').toBeTruthy();
  expect(pair, 'the demo sells a meeting card in a building with a meeting room').toBeTruthy();
  return { buyer, ...pair! };
}

/**
 * Books the first slot from 5 days ahead that no booking holds yet (the demo books rooms ahead
 * too): a 409 naming a clashing order moves on to the next hour. Answers the booking and its slot.
 */
async function bookFreeSlot(
  request: APIRequestContext,
  headers: Record<string, string>,
  station: OrderProductOption,
  data: Record<string, unknown>,
) {
  const minutes = Math.max(60, station.minBookingMinutes ?? 60);
  const [open, close] = [minutesOf(station.openTime!), minutesOf(station.closeTime!)];
  for (let ahead = 5; ahead < 40; ahead += 1) {
    for (let start = open + 60; start + minutes <= close; start += 60) {
      const [day, end] = [dayIn(ahead), start + minutes];
      const res = await request.post(room.save, {
        headers,
        data: {
          productId: station.value,
          payMethod: 'offline',
          ...data,
          startAt: `${day}T${hhmm(start)}:00+08:00`,
          endAt: `${day}T${hhmm(end)}:00+08:00`,
        },
      });
      if (res.status() === 409 && (await res.text()).includes('该时段已被订单')) continue;
      expect(res.status(), await res.text()).toBe(200);
      return { booking: (await res.json()).data as OrderDetail, day, start, end };
    }
  }
  throw new Error(`no free slot in ${station.label} within 40 days`);
}

/** A meeting card of `buyer`, sold paid through the API in the room's building. */
async function sellMeetingCard(
  request: APIRequestContext,
  headers: Record<string, string>,
  buyer: { phone: string },
  card: OrderProductOption,
  station: OrderProductOption,
) {
  const sold = await request.post(meetingCard.save, {
    headers,
    data: {
      memberPhone: buyer.phone,
      productId: card.value,
      buildingId: station.buildingIds[0],
      payMethod: 'offline',
      paid: true,
    },
  });
  expect(sold.status(), await sold.text()).toBe(200);
  return (await sold.json()).data as OrderDetail;
}

/** A free slot, found by booking it through the API and cancelling that booking again. */
async function freeSlot(
  request: APIRequestContext,
  headers: Record<string, string>,
  station: OrderProductOption,
  buyer: { phone: string },
) {
  const probe = await bookFreeSlot(request, headers, station, { memberPhone: buyer.phone });
  const cancelled = await request.put(room.cancel, {
    headers,
    data: { id: probe.booking.id, reason: '端到端测试：探测空闲时段' },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  return probe;
}

/** Fills 新建订单's member, room, day and times as staff would. */
async function fillBooking(
  page: PlaywrightPage,
  drawer: Locator,
  booking: { phone: string; station: OrderProductOption; day: string; start: number; end: number },
) {
  await drawer.getByLabel('会员手机号', { exact: true }).fill(booking.phone);
  await choose(page, '产品', booking.station.label)(drawer);
  const date = drawer.getByLabel('预订日期', { exact: true });
  await date.click();
  await date.fill(booking.day);
  await date.press('Enter');
  await choose(page, '预订开始时间', hhmm(booking.start))(drawer);
  await choose(page, '预订结束时间', hhmm(booking.end))(drawer);
}

test.describe('订单管理: 会议室订单 and the meeting card paying them', () => {
  test('find a card-paid booking by phone and date range, refund it and see the card balance restored', async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.admin);
    const { buyer, room: station, card } = await fixtures(request, headers);
    const meeting = await sellMeetingCard(request, headers, buyer, card, station);
    const face = meeting.balanceFen!;
    const { booking, day, start, end } = await bookFreeSlot(request, headers, station, {
      memberPhone: buyer.phone,
      payMethod: 'card',
      cardNo: meeting.cardNo,
    });
    expect(booking.paidFen).toBeGreaterThan(0);
    const today = dayIn(0);

    await signIn(page, demo.yunying);
    await page.goto('/order/meetingRoom');
    const search = page.locator('form[id="office-station-order-search"]');
    await search.getByLabel('会员手机号', { exact: true }).fill(buyer.phone);
    // 下单时间, not the booked 开始时间 range beside it.
    const created = search.locator('.ant-form-item').filter({ hasText: '下单时间' });
    await created.getByPlaceholder('开始日期').click();
    await created.getByPlaceholder('开始日期').fill(today);
    await created.getByPlaceholder('结束日期').fill(today);
    await created.getByPlaceholder('结束日期').press('Enter');
    await search.getByRole('button', { name: /查\s*询/ }).click();

    const rows = page.locator('tbody tr.ant-table-row');
    const row = rows.filter({ hasText: booking.orderNo });
    await expect(row).toBeVisible();
    // Only the buyer's orders once the search has answered (the list before it may still show).
    await expect(rows.filter({ hasNotText: buyer.phone })).toHaveCount(0);
    await expect(row).toContainText(`${day} ${hhmm(start)}`);
    await expect(row).toContainText('已支付');

    await row.getByRole('button', { name: '详情' }).click();
    const drawer = page.getByRole('dialog', { name: '会议室订单详情' });
    await expect(drawer).toContainText(`${day} ${hhmm(start)}–${hhmm(end)}`);
    await expect(drawer).toContainText(meeting.cardNo!);
    await drawer.getByRole('button', { name: /^退\s*款$/ }).click();
    const dialog = page.getByRole('dialog', { name: '退款' });
    await dialog.getByLabel('原因').fill('会员取消会议（端到端测试）');
    await dialog.getByRole('button', { name: '确认退款' }).click();
    await expect(dialog).toBeHidden();
    await expect(drawer.locator('.ant-descriptions').first()).toContainText('已退款');
    await page.keyboard.press('Escape');

    await page.goto('/order/meeting');
    const cardSearch = page.locator('form[id="team-card-order-search"]');
    await cardSearch.getByLabel('订单号', { exact: true }).fill(meeting.orderNo);
    await cardSearch.getByRole('button', { name: /查\s*询/ }).click();
    await page
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: meeting.orderNo })
      .getByRole('button', { name: '详情' })
      .click();
    const cardDrawer = page.getByRole('dialog', { name: '会议卡订单详情' });
    // The whole face value is back on the card, and its booking list shows the refund.
    await expect(cardDrawer.locator('.ant-descriptions-row').filter({ hasText: '余额' })).toContainText(
      formatYuan(face),
    );
    const paidBookings = cardDrawer.getByRole('table', { name: '该卡支付的预订' });
    await expect(paidBookings.getByRole('row').filter({ hasText: booking.orderNo })).toContainText('已退款');
  });

  test('新建订单: a booking entered in the drawer is listed with its times', async ({ page, request }) => {
    const headers = await bearerOf(request, demo.admin);
    const { buyer, room: station } = await fixtures(request, headers);
    const { day, start, end } = await freeSlot(request, headers, station, buyer);

    await signIn(page, demo.yunying);
    await page.goto('/order/meetingRoom');
    await page.getByRole('button', { name: /新建订单/ }).click();
    const drawer = page.getByRole('dialog', { name: '新建会议室订单' });
    await fillBooking(page, drawer, { phone: buyer.phone, station, day, start, end });
    const price = Math.round((station.priceFen * (end - start)) / 60);
    await expect(drawer.getByLabel('订单金额')).toContainText(formatYuan(price));
    await drawer.getByLabel('已线下收款').click();
    await drawer.getByRole('button', { name: /保\s*存/ }).click();

    const toast = page.locator('.ant-message').getByText(/^订单 MR\d+ 已创建$/);
    await expect(toast).toBeVisible();
    const orderNo = (await toast.innerText()).match(/MR\d+/)![0];
    await expect(drawer).toBeHidden();

    const search = page.locator('form[id="office-station-order-search"]');
    await search.getByLabel('订单号', { exact: true }).fill(orderNo);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.locator('tbody tr.ant-table-row').filter({ hasText: orderNo });
    await expect(row).toBeVisible();
    await expect(row).toContainText(buyer.phone);
    await expect(row).toContainText(`${day} ${hhmm(start)}`);
    await expect(row).toContainText('已支付');
    await expect(row).toContainText(formatYuan(price));

    // The same slot again is refused, naming the order that holds it.
    await page.getByRole('button', { name: /新建订单/ }).click();
    await fillBooking(page, drawer, { phone: buyer.phone, station, day, start, end });
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.locator('.ant-message')).toContainText(`该时段已被订单 ${orderNo}`);
    // With the request's id, for a user to quote (the server logs it in every line of that request).
    await expect(page.locator('.ant-message')).toContainText(/（请求编号 [0-9a-f]{16}）/);
    await expect(drawer).toBeVisible();
  });

  test("新建订单 paid by meeting card: the card is picked from the member's list with its balance, and pays", async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.admin);
    const { buyer, room: station, card } = await fixtures(request, headers);
    const meeting = await sellMeetingCard(request, headers, buyer, card, station);
    const { day, start, end } = await freeSlot(request, headers, station, buyer);
    const price = Math.round((station.priceFen * (end - start)) / 60);
    const listed = await request.get(`${room.cards}?memberPhone=${buyer.phone}`, { headers });
    const ours = ((await listed.json()).data as PayingCardOption[]).find((c) => c.cardNo === meeting.cardNo)!;
    expect(ours.balanceFen).toBe(meeting.balanceFen);

    await signIn(page, demo.yunying);
    await page.goto('/order/meetingRoom');
    await page.getByRole('button', { name: /新建订单/ }).click();
    const drawer = page.getByRole('dialog', { name: '新建会议室订单' });
    await fillBooking(page, drawer, { phone: buyer.phone, station, day, start, end });
    await drawer.getByLabel('会议卡余额').check();
    const option = `${meeting.cardNo} · ${ours.productName} · 余额 ${formatYuan(ours.balanceFen)} · 有效期至 ${ours.validTo.slice(0, 10)}`;
    await choose(page, '会议卡卡号', option)(drawer);
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(page.locator('.ant-message').getByText(/^订单 MR\d+ 已创建$/)).toBeVisible();
    await expect(drawer).toBeHidden();

    // The chosen card paid: its balance is down by the booking's price.
    const after = await request.get(`${meetingCard.detail}/${meeting.id}`, { headers });
    expect(((await after.json()).data as OrderDetail).balanceFen).toBe(meeting.balanceFen! - price);
  });

  test("新建订单 on 会员卡订单: the building is chosen among the card's, and the order is listed as pending", async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.admin);
    const { buyer } = await fixtures(request, headers);
    const cards = (await (await request.get(orderPaths(userCardOrder).products, { headers })).json())
      .data as OrderProductOption[];
    const card = cards.find((c) => c.buildingIds.length > 0)!;
    expect(card, 'the demo sells a member card').toBeTruthy();
    const buildings = (await (await request.get(`${prefixes.building}/building/list`, { headers })).json())
      .data as { value: number; label: string }[];
    const where = buildings.find((b) => b.value === card.buildingIds[0])!;

    await signIn(page, demo.caiwu);
    await page.goto('/order/member');
    await page.getByRole('button', { name: /新建订单/ }).click();
    const drawer = page.getByRole('dialog', { name: '新建会员卡订单' });
    await drawer.getByLabel('会员手机号', { exact: true }).fill(buyer.phone);
    await choose(page, '产品', card.label)(drawer);
    await choose(page, '楼宇', where.label)(drawer);
    await expect(drawer.getByLabel('订单金额')).toContainText(formatYuan(card.priceFen));
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    const toast = page.locator('.ant-message').getByText(/^订单 UC\d+ 已创建$/);
    await expect(toast).toBeVisible();
    const orderNo = (await toast.innerText()).match(/UC\d+/)![0];

    const search = page.locator('form[id="user-card-order-search"]');
    await search.getByLabel('订单号', { exact: true }).fill(orderNo);
    await search.getByRole('button', { name: /查\s*询/ }).click();
    const row = page.locator('tbody tr.ant-table-row').filter({ hasText: orderNo });
    await expect(row).toContainText('待支付');
    await expect(row).toContainText(where.label);

    // Payment taken at the desk: 确认支付 in the detail, confirmed once (not 确认确认支付).
    await row.getByRole('button', { name: '详情' }).click();
    const detail = page.getByRole('dialog', { name: '会员卡订单详情' });
    await detail.getByRole('button', { name: /^确认支付$/ }).click();
    const paying = page.getByRole('dialog', { name: '确认支付' });
    await expect(paying).toContainText('从「待支付」改为「已支付」');
    await expect(paying.getByRole('button', { name: /确认确认/ })).toHaveCount(0);
    await paying.getByRole('button', { name: '确认已收款' }).click();
    await expect(paying).toBeHidden();
    await expect(detail.getByLabel('状态记录')).toContainText('待支付 → 已支付');
  });
});

test('预订日历: a drag across free half hours opens 新建订单 with the room, day and times; the booking then shows as busy', async ({
  page,
  request,
}) => {
  const headers = await bearerOf(request, demo.admin);
  const { buyer, room: station } = await fixtures(request, headers);
  const { day, start, end } = await freeSlot(request, headers, station, buyer);
  const [buildingName, roomName] = station.label.split(' · ');

  await signIn(page, demo.yunying);
  await page.goto('/order/meetingRoom');
  await page.getByText('预订日历').click();
  await choose(page, '楼宇', buildingName)(page.locator('.ant-card').first());
  const date = page.getByLabel('日期', { exact: true });
  await date.click();
  await date.fill(day);
  await date.press('Enter');
  const calendar = page.getByRole('table', { name: '预订日历' });
  const cell = (minutes: number) =>
    calendar.getByLabel(`${roomName} ${hhmm(minutes)}–${hhmm(minutes + 30)} 空闲`, { exact: true });
  await cell(start).hover();
  await page.mouse.down();
  await cell(end - 30).hover();
  await page.mouse.up();

  const drawer = page.getByRole('dialog', { name: '新建会议室订单' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByLabel('预订日期', { exact: true })).toHaveValue(day);
  const price = Math.round((station.priceFen * (end - start)) / 60);
  await expect(drawer.getByLabel('订单金额')).toContainText(formatYuan(price));
  await drawer.getByLabel('会员手机号', { exact: true }).fill(buyer.phone);
  await drawer.getByLabel('已线下收款').click();
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.locator('.ant-message').getByText(/^订单 MR\d+ 已创建$/)).toBeVisible();
  await expect(drawer).toBeHidden();
  await expect(
    calendar.getByLabel(`${roomName} ${hhmm(start)}–${hhmm(start + 30)} 已预订`, { exact: true }),
  ).toBeVisible();
  await expect(cell(start)).toHaveCount(0);

  // The week shows how much of each day is booked; a day opens its hours again.
  await page.getByText('周', { exact: true }).click();
  const week = page.getByRole('table', { name: '预订日历（周）' });
  const dayButton = week.getByRole('button', { name: `${roomName} ${day}`, exact: true });
  await expect(dayButton).toContainText(/\d+ 单/);
  await dayButton.click();
  await expect(
    calendar.getByLabel(`${roomName} ${hhmm(start)}–${hhmm(start + 30)} 已预订`, { exact: true }),
  ).toBeVisible();
});

test.describe('预订日历 on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('one room’s day as a list of half hours: bookings with their order, a tap on a free one opens 新建订单 there', async ({
    page,
    request,
  }) => {
    const headers = await bearerOf(request, demo.admin);
    const { buyer, room: station } = await fixtures(request, headers);
    const { booking, day, start, end } = await bookFreeSlot(request, headers, station, {
      memberPhone: buyer.phone,
    });
    const [buildingName, roomName] = station.label.split(' · ');

    await signIn(page, demo.yunying);
    await page.goto('/order/meetingRoom');
    await page.getByText('预订日历').click();
    const card = page.locator('.ant-card').first();
    await choose(page, '楼宇', buildingName)(card);
    const date = page.getByLabel('日期', { exact: true });
    await date.click();
    await date.fill(day);
    await date.press('Enter');
    await choose(page, '场地', roomName)(card);

    // A list, not the grid of every room's half hours, and nothing to scroll sideways.
    await expect(page.getByRole('table', { name: '预订日历' })).toHaveCount(0);
    const list = page.getByRole('list', { name: '预订日历' });
    const booked = list.getByLabel(`${roomName} ${hhmm(start)}–${hhmm(end)} 已预订`, { exact: true });
    await expect(booked).toContainText(booking.orderNo);
    await expect(booked).toContainText(buyer.phone.slice(-4));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // Each legend entry on one line (12 px text: one line is under 24 px high).
    for (const entry of await page.locator('.booking-calendar-legend span').all()) {
      expect((await entry.boundingBox())!.height).toBeLessThan(24);
    }
    // Every row of the list keeps its time beside its text.
    for (const row of await list.locator('.booking-calendar-slot').all()) {
      expect((await row.boundingBox())!.width).toBeLessThanOrEqual(390);
    }
    await page.screenshot({ path: test.info().outputPath('booking-calendar-phone.png') });
    await page.locator('.booking-calendar-legend').scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('booking-calendar-phone-legend.png') });

    // Any free half hour: its label names the room and the time 新建订单 must open with.
    const free = list.getByRole('button', { name: /空闲$/ }).first();
    const slot = (await free.getAttribute('aria-label'))!.match(/ (\d\d:\d\d)–/)![1];
    await free.click();
    const drawer = page.getByRole('dialog', { name: '新建会议室订单' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByLabel('预订日期', { exact: true })).toHaveValue(day);
    await expect(drawer).toContainText(station.label);
    await expect(drawer).toContainText(slot);
    await drawer.getByRole('button', { name: /取\s*消/ }).click();
    await expect(drawer).toBeHidden();

    // The week scrolls sideways inside the calendar, not the page.
    await page.getByText('周', { exact: true }).click();
    await expect(page.getByRole('table', { name: '预订日历（周）' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: test.info().outputPath('booking-calendar-phone-week.png') });
  });
});
