/**
 * Migration 0031 (企业) on a database holding the rows of before: access groups and company cards
 * naming companies as text (one name in two spellings differing in case and spaces), group members
 * and card phones (one phone no member has). Migrated, each name is one company, its staff list
 * holds the members of its groups and the phones of its cards (the phone without a member became
 * one, from 企业导入), and every group, chosen person and card points at them, NOT NULL.
 * Runs on PGlite: the migration is the same SQL on both engines.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrationsFolder, rowsOf } from '../src/db/client.ts';

const BEFORE = '0030_open_platform';
let client: PGlite;
let folder: string;
const db = () => drizzle(client);
const rows = <T>(query: ReturnType<typeof sql>) => rowsOf<T>(db(), query);

beforeAll(async () => {
  // The migrations up to 0030, as a database of before would have had them.
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-migration-'));
  await fs.cp(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await fs.readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === BEFORE);
  expect(cut).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut + 1);
  await fs.writeFile(journalFile, JSON.stringify(journal));
  client = await PGlite.create();
  await migrate(db(), { migrationsFolder: folder });

  await client.exec(`
    insert into merchants (id, name) values (1, '迁移商户');
    insert into buildings (id, merchant_id, name, province_code, city_code, address)
      values (1, 1, '迁移一号楼', '310000', '310100', '迁移路 1 号'), (2, 1, '迁移二号楼', '310000', '310100', '迁移路 2 号');
    insert into members (id, phone, nickname, real_name) values
      (1, '13900000001', '阿一', '王一'), (2, '13900000002', '阿二', null), (3, '13900000003', '', null);
    insert into team_cards (id, name, face_value_fen, price_fen, valid_days) values (1, '迁移卡', 1, 1, 30);
    insert into kreator_user_groups (id, name, company_name, building_id, valid_from, valid_to) values
      (1, '一号楼组', 'xingHE', 1, now() - interval '1 day', now() + interval '30 days'),
      (2, '二号楼组', ' XINGHE ', 2, now() - interval '1 day', now() + interval '30 days'),
      (3, '云帆组', '云帆传媒', 1, now() - interval '1 day', now() + interval '30 days');
    insert into kreator_users (group_id, member_id, phone, name, created_at) values
      (1, 1, '13900000001', '王一', now() - interval '10 days'),
      (2, 1, '13900000001', '王一', now() - interval '5 days'),
      (2, 2, '13900000002', '阿二', now() - interval '5 days'),
      (3, 2, '13900000002', '阿二', now());
    insert into company_cards (id, card_no, company_name, team_card_id, balance_fen, member_phones, valid_until) values
      (1, 'QY00000001', 'Xinghe', 1, 0, '{13900000001,13900000003,13900000099}', now() + interval '30 days'),
      (2, 'QY00000002', '无门禁组企业', 1, 0, '{}', now() + interval '30 days');
    select setval(pg_get_serial_sequence(t, 'id'), 10)
      from unnest(array['merchants', 'buildings', 'members', 'team_cards', 'kreator_user_groups', 'company_cards']) t;
  `);
  // Now the full folder: 0031 runs on these rows.
  await migrate(db(), { migrationsFolder });
});

afterAll(async () => {
  await client?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

test('one company per name, whatever its case and spaces (the first spelling in byte order); groups and cards carry its name', async () => {
  const companies = await rows<{ id: number; name: string; building_ids: number[] }>(
    sql`select id, name, building_ids from companies order by name collate "C"`,
  );
  expect(companies.map((c) => c.name)).toEqual(['XINGHE', '云帆传媒', '无门禁组企业']);
  const byName = new Map(companies.map((c) => [c.name, c]));
  expect(byName.get('XINGHE')!.building_ids).toEqual([1, 2]);
  expect(byName.get('无门禁组企业')!.building_ids).toEqual([]);
  const groups = await rows<{ id: number; company_id: number; company_name: string; staff_scope: string }>(
    sql`select id, company_id, company_name, staff_scope from kreator_user_groups order by id`,
  );
  expect(groups.map((g) => [g.company_id, g.company_name, g.staff_scope])).toEqual([
    [byName.get('XINGHE')!.id, 'XINGHE', 'people'],
    [byName.get('XINGHE')!.id, 'XINGHE', 'people'],
    [byName.get('云帆传媒')!.id, '云帆传媒', 'people'],
  ]);
  const cards = await rows<{ company_id: number; company_name: string }>(
    sql`select company_id, company_name from company_cards order by id`,
  );
  expect(cards).toEqual([
    { company_id: byName.get('XINGHE')!.id, company_name: 'XINGHE' },
    { company_id: byName.get('无门禁组企业')!.id, company_name: '无门禁组企业' },
  ]);
});

test('staff lists from the groups’ members and the cards’ phones; a phone without a member became one', async () => {
  const staff = await rows<{ company: string; name: string; phone: string; status: string }>(sql`
    select c.name as company, s.name, s.phone, s.status
    from company_staff s join companies c on c.id = s.company_id order by c.name collate "C", s.phone`);
  expect(staff).toEqual([
    { company: 'XINGHE', name: '王一', phone: '13900000001', status: 'active' },
    { company: 'XINGHE', name: '阿二', phone: '13900000002', status: 'active' },
    { company: 'XINGHE', name: '13900000003', phone: '13900000003', status: 'active' },
    { company: 'XINGHE', name: '13900000099', phone: '13900000099', status: 'active' },
    { company: '云帆传媒', name: '阿二', phone: '13900000002', status: 'active' },
  ]);
  const [made] = await rows<{ company_name: string; source: string | null }>(sql`
    select m.company_name, s.name as source from members m left join csr_sources s on s.id = m.source_id
    where m.phone = '13900000099'`);
  expect(made).toEqual({ company_name: 'XINGHE', source: '企业导入' });
  // Joined when first put in one of the company's groups.
  const [joined] = await rows<{ days: number }>(sql`
    select round(extract(epoch from now() - joined_at) / 86400)::int as days from company_staff where phone = '13900000001'`);
  expect(joined.days).toBe(10);
});

test('every chosen person points at its company’s staff row; the new columns are NOT NULL', async () => {
  const people = await rows<{ matches: boolean }>(sql`
    select s.company_id = g.company_id and s.member_id = u.member_id as matches
    from kreator_users u join kreator_user_groups g on g.id = u.group_id join company_staff s on s.id = u.staff_id`);
  expect(people).toHaveLength(4);
  expect(people.every((p) => p.matches)).toBe(true);
  const nullable = await rows<{ table_name: string; column_name: string; is_nullable: string }>(sql`
    select table_name, column_name, is_nullable from information_schema.columns
    where (table_name, column_name) in (('kreator_user_groups', 'company_id'), ('company_cards', 'company_id'),
      ('kreator_users', 'staff_id')) order by table_name`);
  expect(nullable.map((c) => c.is_nullable)).toEqual(['NO', 'NO', 'NO']);
  await expect(
    db().execute(
      sql`insert into kreator_users (group_id, member_id, phone, name) values (1, 3, '13900000003', 'x')`,
    ),
  ).rejects.toThrow();
});
