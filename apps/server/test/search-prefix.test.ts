/**
 * Phones and numbers are found by what staff type first ("1391200", "UC20"), on every list that
 * searches them; the demo's own rows are the data.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { resourcePaths, type Page } from '@cowork/contract';
import { csrCapitalSite } from '@cowork/contract/resources/csr-capital-site';
import { invoice, invoicePaths } from '@cowork/contract/resources/invoice';
import { member } from '@cowork/contract/resources/member';
import { merchantShareOrderPaths } from '@cowork/contract/resources/merchant-share-order';
import { orderPaths, userCardOrder } from '@cowork/contract/resources/order';
import { buildTestApp, callApi, demo, engine, type TestApp } from './helper.ts';

type Row = Record<string, unknown>;

describe(`search by the first characters of a phone or number (${engine})`, () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const page = async (path: string, query: Record<string, string>) => {
    const answer = await callApi<Page<Row>>(
      t,
      admin,
      'GET',
      `${path}?size=100&${new URLSearchParams(query)}`,
    );
    expect(answer.status, answer.raw).toBe(200);
    return answer.body.data;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.auth(...demo.admin);
  });
  afterAll(() => t.close());

  /** Takes a row's value, searches its first `length` characters, and checks every hit starts so. */
  async function findsByPrefix(
    path: string,
    key: string,
    length: number,
    valueOf = (row: Row) => String(row[key]),
  ) {
    const [first] = (await page(path, {})).records;
    expect(first, `${path} has rows in the demo`).toBeDefined();
    const whole = valueOf(first!);
    const typed = whole.slice(0, length);
    const found = await page(path, { [key]: typed });
    expect(found.records.map((r) => r.id)).toContain(first!.id);
    for (const row of found.records) expect(valueOf(row).startsWith(typed)).toBe(true);
    // Only the start: the same digits from the middle find nothing.
    expect((await page(path, { [key]: whole.slice(1, length + 1) })).records.map((r) => r.id)).not.toContain(
      first!.id,
    );
    return found;
  }

  test('orders by order number and by member phone', async () => {
    const paths = orderPaths(userCardOrder);
    await findsByPrefix(paths.page, 'orderNo', 6);
    await findsByPrefix(paths.page, 'memberPhone', 7);
  });

  test('members by phone', () => findsByPrefix(resourcePaths(member).page, 'phone', 7));

  test('leads by contact phone', () => findsByPrefix(resourcePaths(csrCapitalSite).page, 'contactPhone', 7));

  test('invoices by member phone and by the number of an order they cover', async () => {
    await findsByPrefix(invoicePaths(invoice).page, 'memberPhone', 7);
    const [first] = (await page(invoicePaths(invoice).page, {})).records as {
      id: number;
      orderNos: string[];
    }[];
    const typed = first!.orderNos[0]!.slice(0, 8);
    const found = (await page(invoicePaths(invoice).page, { orderNo: typed })).records as {
      id: number;
      orderNos: string[];
    }[];
    expect(found.map((r) => r.id)).toContain(first!.id);
    for (const row of found) expect(row.orderNos.some((no) => no.startsWith(typed))).toBe(true);
  });

  test('share orders by order number', () => findsByPrefix(merchantShareOrderPaths.page, 'orderNo', 6));

  test('a typed % or _ is a character, not a wildcard', async () => {
    expect((await page(orderPaths(userCardOrder).page, { orderNo: '%' })).total).toBe(0);
    expect((await page(resourcePaths(member).page, { phone: '1_' })).total).toBe(0);
  });
});
