import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_RENEW_AT_KEY,
  ACCESS_TOKEN_RENEW_SHARE,
  deviceEndpoints,
  REFRESH_TOKEN_COOKIE,
} from '@cowork/contract';
import ExcelJS from 'exceljs';
import { DEVELOPMENT_ENROL_KEY } from '../apps/server/src/config';
import { SimulatedDevice, type SimulatorOptions } from '../apps/server/src/device-link/simulator';
import { MQTT_PORT } from '../playwright.config';

/** A 1×1 PNG, for upload controls. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export const demo = {
  admin: { username: 'admin', password: 'Admin@123', nickname: '系统管理员' },
  yunying: { username: 'yunying', password: 'Yunying@123', nickname: '运营专员' },
  caiwu: { username: 'caiwu', password: 'Caiwu@123', nickname: '财务专员' },
};

/**
 * Signs in through the login form and waits for the console to greet the user. For the tests of
 * signing in itself and of what a user sees first; the rest use the quicker `signIn`.
 */
export async function signInThroughForm(
  page: Page,
  user: { username: string; password: string },
  path = '/login',
) {
  await page.goto(path);
  await page.getByPlaceholder('请输入用户名').fill(user.username);
  await page.getByPlaceholder('请输入密码').fill(user.password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/**
 * Opens the header's user menu (it opens on hover) and clicks one of its entries, then waits for
 * what that entry does. Hovered again if the click found the menu closing: antd lets clicks through
 * a popup in its leave animation, and a loaded CI machine once lost a click that way.
 */
export async function chooseUserMenuEntry(page: Page, name: string, done: () => Promise<void>) {
  await expect(async () => {
    await page.getByTestId('user-dropdown').hover();
    await page.getByRole('menuitem', { name }).click({ timeout: 5_000 });
    await done();
  }).toPass({ timeout: 30_000 });
}

/**
 * Signs in the way the login form does (the token endpoint, then the two token cookies), without
 * loading the login page and the home page first: a page load costs seconds on a 2-core machine.
 * The test's first `page.goto` opens the console signed in; `path` opens one here.
 */
export async function signIn(page: Page, user: { username: string; password: string }, path?: string) {
  const token = await tokenOf(page.request, user);
  const url = test.info().project.use.baseURL as string;
  await page.context().addCookies([
    { name: ACCESS_TOKEN_COOKIE, value: token.access_token, url, sameSite: 'Lax' },
    { name: REFRESH_TOKEN_COOKIE, value: token.refresh_token, url, sameSite: 'Lax' },
  ]);
  // As the login form does (session.ts setTokens): when to renew the token ahead of its expiry.
  // Set before the console's first script, and only once: a renewal later records its own.
  const renewAt = Date.now() + token.expires_in * 1000 * ACCESS_TOKEN_RENEW_SHARE;
  await page.addInitScript(
    ([key, at]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, at);
    },
    [ACCESS_TOKEN_RENEW_AT_KEY, String(Math.round(renewAt))] as const,
  );
  if (path) {
    await page.goto(path);
    await expect(page.getByTestId('side-menu')).toBeVisible();
  }
}

export async function cookie(page: Page, name: string) {
  return (await page.context().cookies()).find((c) => c.name === name)?.value;
}

/** Signs in through the token endpoint (the admin client, HTTP Basic) and returns the token answer. */
async function tokenOf(request: APIRequestContext, user: { username: string; password: string }) {
  const res = await request.post('/api/auth/oauth/token', {
    headers: { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` },
    form: { grant_type: 'password', ...user },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
}

/** A day `offset` days from today in Beijing time, as a date picker takes it: `2026-11-28`. */
export const dayFromToday = (offset: number) =>
  new Date(Date.now() + 8 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);

/** A member's personal door code, as the protocol defines it (TOTP, SHA-1, 6 digits, 30 s). */
export function memberCode(secret: string, memberId: number, now = Date.now()) {
  const key = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`member:${memberId}`).digest();
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/** Signs in through the token endpoint and returns a bearer header. */
export async function bearerOf(request: APIRequestContext, user: { username: string; password: string }) {
  return { Authorization: `Bearer ${(await tokenOf(request, user)).access_token}` };
}

/** Closes an edit drawer whose form holds unsaved changes: 取消, then 放弃修改 in the question. */
export async function discardDrawer(page: Page, drawer: Locator) {
  await drawer.getByRole('button', { name: /取\s*消/ }).click();
  await page
    .getByRole('dialog', { name: '放弃未保存的修改？' })
    .getByRole('button', { name: '放弃修改' })
    .click();
  await expect(drawer).toBeHidden();
}

/** Clicks 删除 in a table row and confirms it in the pop-up. */
export async function removeRow(page: Page, row: Locator) {
  await row.getByRole('button', { name: /删\s*除/ }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /删\s*除/ })
    .click();
}

/**
 * Picks options of an antd Select in a form scope (a drawer, the search form) by its label. A
 * dropdown opened while a drawer is still handing focus back closes again, so opening and picking
 * the first option is retried until it takes; a multi-select's dropdown is closed afterwards.
 */
export const choose =
  (page: Page, label: string, ...options: string[]) =>
  async (scope: Locator) => {
    const dropdown = page.locator('.ant-select-dropdown:visible');
    const [first, ...rest] = options;
    // A previous pick's dropdown must finish closing first, or its options would be searched.
    await expect(dropdown).toBeHidden();
    const select = scope.locator('.ant-select').filter({ has: page.getByLabel(label, { exact: true }) });
    await expect(async () => {
      if (!(await dropdown.isVisible())) await scope.getByLabel(label, { exact: true }).click();
      await dropdown.getByTitle(first, { exact: true }).click({ timeout: 2_000 });
      // A click on a dropdown still moving into place can pick nothing: the select must show it.
      await expect(select).toContainText(first, { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    for (const option of rest) await dropdown.getByTitle(option, { exact: true }).click();
    // A single select closes by itself; a multi-select stays open: close it so it covers nothing.
    await dropdown.waitFor({ state: 'hidden', timeout: 1_000 }).catch(() => undefined);
    if (await dropdown.isVisible()) await page.keyboard.press('Escape');
    await expect(dropdown).toBeHidden();
  };

/** The input of a form item found by its label (date pickers do not carry the label's id). */
export const itemInput = (scope: Locator, label: string) =>
  scope
    .locator('.ant-form-item')
    .filter({ has: scope.page().getByText(label, { exact: true }) })
    .locator('input');

let workbookFolder: string | undefined;

/** Writes an .xlsx with this header row and these rows (an Excel import's upload); answers its path. */
export async function workbookFile(name: string, headers: string[], rows: unknown[][]): Promise<string> {
  workbookFolder ??= mkdtempSync(join(tmpdir(), 'e2e-import-'));
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('导入');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  const file = join(workbookFolder, name);
  await book.xlsx.writeFile(file);
  return file;
}

/** A door to register: its sn and name, where it stands, and how its simulator behaves (default v1.1). */
type DoorToRegister = Omit<SimulatorOptions, 'url' | 'secret' | 'enrolKey'> & {
  name: string;
  spaceId?: number | null;
};

/**
 * Simulated door devices over the console's embedded broker, closed after the spec file's tests:
 * call it once at the top of a spec file (the `afterAll` belongs to that file).
 */
export function simulatedDoors() {
  const url = `mqtt://127.0.0.1:${MQTT_PORT}`;
  const opened: SimulatedDevice[] = [];
  test.afterAll(async () => {
    await Promise.all(opened.map((d) => d.close().catch(() => undefined)));
  });
  const open = async (options: Omit<SimulatorOptions, 'url'>) => {
    const device = new SimulatedDevice({ ...options, url, protocol: options.protocol ?? '1.1' });
    opened.push(device);
    await device.connect();
    return device;
  };

  return {
    /**
     * A door enrolled, registered through the API with `headers` (an administrator's; the screens
     * of registering have their own test) and connected with its secret.
     */
    async register(request: APIRequestContext, headers: Record<string, string>, door: DoorToRegister) {
      const { name, spaceId = null, reconnectMs, ...simulator } = door;
      const enrolling = await open({ ...simulator, enrolKey: DEVELOPMENT_ENROL_KEY });
      await expect
        .poll(async () => {
          const res = await request.get(deviceEndpoints.unPulledList, { headers });
          return ((await res.json()) as { data: { sn: string }[] }).data.some((d) => d.sn === door.sn);
        })
        .toBe(true);
      const res = await request.post(deviceEndpoints.register, {
        headers,
        data: { sn: door.sn, name, spaceId },
      });
      expect(res.status(), await res.text()).toBe(200);
      const { id, secret } = ((await res.json()) as { data: { id: number; secret: string } }).data;
      await enrolling.close();
      const device = await open({ ...simulator, secret, reconnectMs });
      return { id, secret, device };
    },
  };
}
