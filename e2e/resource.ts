import { expect, type Page } from '@playwright/test';

/** What a user types into one form: field label → value (text inputs) or a function that fills it. */
export type Entries = Record<string, string | ((scope: ReturnType<Page['getByRole']>) => Promise<void>)>;

export interface CrudScenario {
  /** Route of the screen, e.g. `/system/source`. */
  path: string;
  /** The resource's Chinese label (新建{label}). */
  label: string;
  /** Entries of the create drawer; the first value must appear in the table row. */
  create: Entries;
  /** Entries changed in the edit drawer; the first value must appear in the row afterwards. */
  edit: Entries;
  /** Search-form entries that find the record (text inputs). */
  search: Record<string, string>;
  /** Whether the screen has a publish switch. */
  publish?: boolean;
  /** A required field left empty must show this message. */
  requiredMessage?: string;
}

async function fill(scope: ReturnType<Page['getByRole']>, entries: Entries) {
  for (const [label, value] of Object.entries(entries)) {
    if (typeof value === 'function') await value(scope);
    else await scope.getByLabel(label, { exact: true }).fill(value);
  }
}

/**
 * Walks one resource screen as a user would: create (after a refused empty save), search, edit,
 * publish and unpublish, delete with confirmation, checking what the table shows at each step.
 */
export async function walkCrudScreen(page: Page, s: CrudScenario) {
  await page.goto(s.path);
  const table = page.getByRole('table');
  await expect(table).toBeVisible();

  await page.getByRole('button', { name: `新建${s.label}` }).click();
  const drawer = page.getByRole('dialog', { name: `新建${s.label}` });
  if (s.requiredMessage) {
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect(drawer.getByText(s.requiredMessage)).toBeVisible();
  }
  await fill(drawer, s.create);
  await drawer.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText(`${s.label}已新建`)).toBeVisible();
  await expect(drawer).toBeHidden();
  // 保存 sits where the header's user menu opens on hover: move the pointer off it.
  await page.mouse.move(0, 0);

  const search = page.locator('.resource-search');
  for (const [label, value] of Object.entries(s.search))
    await search.getByLabel(label, { exact: true }).fill(value);
  await search.getByRole('button', { name: /查\s*询/ }).click();
  const created = String(Object.values(s.create)[0]);
  const row = table.getByRole('row').filter({ hasText: created });
  await expect(row).toHaveCount(1);
  await expect(page.getByText('共 1 条')).toBeVisible();

  await row.getByRole('button', { name: /编\s*辑/ }).click();
  const editor = page.getByRole('dialog', { name: `编辑${s.label}` });
  await fill(editor, s.edit);
  await editor.getByRole('button', { name: /保\s*存/ }).click();
  await expect(page.getByText(`${s.label}已保存`)).toBeVisible();
  await page.mouse.move(0, 0);
  await search.getByRole('button', { name: /重\s*置/ }).click();
  const edited = table.getByRole('row').filter({ hasText: String(Object.values(s.edit)[0]) });
  await expect(edited).toHaveCount(1);

  if (s.publish) {
    const toggle = edited.getByRole('switch');
    const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';
    await toggle.click();
    await expect(page.getByText(wasOn ? `${s.label}已下架` : `${s.label}已发布`)).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-checked', String(!wasOn));
  }

  await edited.getByRole('button', { name: /删\s*除/ }).click();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /删\s*除/ })
    .click();
  await expect(page.getByText(`已删除 1 条${s.label}`)).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: String(Object.values(s.edit)[0]) })).toHaveCount(0);
}
