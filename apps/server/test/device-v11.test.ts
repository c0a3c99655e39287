/**
 * Protocol v1.1 secrets and the device API's words, through the embedded broker with simulated
 * devices of both protocols: a reset-config's new secret travels sealed (secretBox) to a v1.1
 * device, admin passwords reach it as salted PBKDF2 and never as SHA-256, the answers that carry a
 * secret are kept encrypted for Idempotency-Key repeats, and the command and open logs name the
 * staff member (or 系统自动) instead of `system` and a masked username.
 */
import { createDecipheriv, createHmac, pbkdf2Sync } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceEndpoints, IDEMPOTENCY_KEY_HEADER } from '@cowork/contract';
import {
  kreatorDeviceEndpoints,
  kreatorUserEndpoints,
  kreatorUserGroup,
} from '@cowork/contract/resources/kreator';
import { resourcePaths } from '@cowork/contract';
import { buildings, devices, ssoUsers } from '../src/db/schema.ts';
import {
  adminPasswordAccepts,
  adminPasswordEntry,
  adminPasswordsFor,
  openSecretBox,
  sealSecretBox,
} from '../src/device-link/secrets-v11.ts';
import { doorFixture } from './device-fixture.ts';
import { createCompany, demo, type TestApp, until } from './helper.ts';

describe('v1.1 secrets: fixed vectors, computed independently (Python cryptography) and in the test', () => {
  const oldSecret = 'old-device-secret-0123456789abcdefghijklmnop';
  const newSecret = 'new-device-secret-ZYXWVUTSRQPONMLKJIHGFEDCBA';
  const iv = Buffer.from([...Array(12).keys()]);
  const vector =
    'AAECAwQFBgcICQoLaHPC1km2qFS4TzbwgfWr6iyP-D02wjJifR0_OIjXS7Mj9okEolOYgtvB9o9qTNuu0-o5AKO08kWe4cOO';

  test('secretBox: IV, AES-256-GCM ciphertext, tag, keyed by HMAC-SHA256(old secret, "reset-config")', () => {
    expect(sealSecretBox(newSecret, oldSecret, iv)).toBe(vector);
    // The protocol's words, step by step.
    const bytes = Buffer.from(vector, 'base64url');
    const key = createHmac('sha256', Buffer.from(oldSecret, 'utf8')).update('reset-config').digest();
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(-16));
    expect(Buffer.concat([decipher.update(bytes.subarray(12, -16)), decipher.final()]).toString()).toBe(
      newSecret,
    );
    expect(openSecretBox(sealSecretBox(newSecret, oldSecret), oldSecret)).toBe(newSecret);
    expect(() => openSecretBox(vector, `${oldSecret}x`)).toThrow();
  });

  test('admin passwords: PBKDF2-HMAC-SHA256, 16-byte salt, ≥ 10 000 rounds, 32 bytes; v1 keeps SHA-256', async () => {
    const fixed = {
      id: 'P1',
      salt: 'AAECAwQFBgcICQoLDA0ODw',
      iterations: 20_000,
      pbkdf2: 'ml0mg7tf9R7JezTzAfJt0H7qkmSs87QAD3Ury14Bwd0',
    };
    expect(adminPasswordAccepts(fixed, '13572468')).toBe(true);
    expect(adminPasswordAccepts(fixed, '13572469')).toBe(false);

    const entry = await adminPasswordEntry('P2', '24681357');
    expect(Buffer.from(entry.salt, 'base64url')).toHaveLength(16);
    expect(entry.iterations).toBeGreaterThanOrEqual(10_000);
    expect(entry.pbkdf2).toBe(
      pbkdf2Sync('24681357', Buffer.from(entry.salt, 'base64url'), entry.iterations, 32, 'sha256').toString(
        'base64url',
      ),
    );
    expect((await adminPasswordEntry('P3', '24681357')).salt).not.toBe(entry.salt);
    const legacy = { id: 'P0', sha256: entry.sha256 };
    expect(adminPasswordsFor([entry, legacy], '1')).toEqual([
      { id: 'P2', sha256: entry.sha256 },
      { id: 'P0', sha256: entry.sha256 },
    ]);
    // Kept before PBKDF2: not convertible, so a v1.1 device is not sent it at all.
    expect(adminPasswordsFor([entry, legacy], '1.1')).toEqual([
      { id: 'P2', salt: entry.salt, iterations: entry.iterations, pbkdf2: entry.pbkdf2 },
    ]);
  });
});

describe('through the embedded broker', () => {
  const doors = doorFixture({ enrolKey: 'test-enrol-key-v11-secrets', device: { heartbeatMs: 1_000 } });
  const { get, post, pageOf } = doors;
  const idempotencyKey = doors.nextIdempotencyKey;
  let t: TestApp;
  let adminName: string;

  const detailOf = async (id: number) =>
    (await get(`${deviceEndpoints.detail}/${id}`)).json<{
      data: { commands: { type: string; byName: string | null; state: string }[] };
    }>().data;
  const keptAnswers = async () =>
    JSON.stringify(await t.db.execute(sql`select response from idempotency_keys`));

  /** Registered with an Idempotency-Key, as the console does: its answer is kept, never in clear. */
  async function registered(sn: string, protocol: '1' | '1.1') {
    const key = idempotencyKey();
    const door = await doors.registered(sn, { protocol }, { idempotencyKey: key });
    // Kept for a repeat, but never in clear; the repeat still answers the same secret.
    expect(await keptAnswers()).not.toContain(door.secret);
    const repeat = await post(
      deviceEndpoints.register,
      { sn, name: `门 ${sn}`, spaceId: null },
      { [IDEMPOTENCY_KEY_HEADER]: key },
    );
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(door.answer);
    return door;
  }

  let v1: Awaited<ReturnType<typeof registered>>;
  let v11: Awaited<ReturnType<typeof registered>>;

  beforeAll(async () => {
    t = await doors.start();
    [{ nickname: adminName }] = await t.db
      .select({ nickname: ssoUsers.nickname })
      .from(ssoUsers)
      .where(eq(ssoUsers.username, demo.admin[0]));
    v1 = await registered('V1-DOOR', '1');
    v11 = await registered('V11-DOOR', '1.1');
  });

  afterAll(() => doors.close());

  test("the device list shows each device's protocol from its hello", async () => {
    expect((await pageOf('V1-DOOR')).protocol).toBe('1');
    expect((await pageOf('V11-DOOR')).protocol).toBe('1.1');
  });

  test('reset-config: a v1.1 device gets secretBox (never the secret), a v1 device the secret; the answers are kept sealed', async () => {
    for (const { d, id, secret: old } of [v11, v1]) {
      const key = idempotencyKey();
      const res = await post(
        deviceEndpoints.resetConfig,
        { id, reason: '轮换' },
        { [IDEMPOTENCY_KEY_HEADER]: key },
      );
      expect(res.statusCode, res.body).toBe(200);
      const { secret } = res.json<{ data: { secret: string } }>().data;
      const sent = d.commands.findLast((c) => c.type === 'reset-config')!;
      if (d === v11.d) {
        expect(sent.params.secret).toBeUndefined();
        expect(JSON.stringify(sent)).not.toContain(secret);
        expect(openSecretBox(String(sent.params.secretBox), old)).toBe(secret);
      } else {
        expect(sent.params).toEqual({ secret });
      }
      await until(() => d.secret === secret, `${d.sn} holds the new secret`);
      expect(await keptAnswers()).not.toContain(secret);
      const repeat = await post(
        deviceEndpoints.resetConfig,
        { id, reason: '轮换' },
        { [IDEMPOTENCY_KEY_HEADER]: key },
      );
      expect(repeat.json<{ data: { secret: string } }>().data.secret).toBe(secret);
      // Still the device's one secret: the repeat did not rotate it again.
      const [row] = await t.db.select({ secret: devices.secret }).from(devices).where(eq(devices.id, id));
      expect(t.app.devices.box.open(row.secret)).toBe(secret);
      await until(async () => (await pageOf(d.sn)).status === 'online' && d.connected, `${d.sn} back`);
    }
  });

  test('admin passwords: a v1.1 device checks PBKDF2 and is sent no SHA-256; a v1 device keeps SHA-256', async () => {
    for (const { d, id } of [v11, v1]) {
      const res = await post(deviceEndpoints.adminPwdSave, { id, password: '86420135', reason: '物业备用' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.synced, res.body).toBe(true);
      expect(await d.enterPassword('86420135')).toEqual({ result: 'success' });
      expect((await d.enterPassword('86420136')).result).toBe('denied');
    }
    const sync11 = v11.d.commands.findLast((c) => c.type === 'sync')!;
    expect(JSON.stringify(sync11.params)).not.toContain('sha256');
    expect(sync11.params.adminPasswords).toEqual([
      { id: expect.any(String), salt: expect.any(String), iterations: 20_000, pbkdf2: expect.any(String) },
    ]);
    const sync1 = v1.d.commands.findLast((c) => c.type === 'sync')!;
    expect(sync1.params.adminPasswords).toEqual([{ id: expect.any(String), sha256: expect.any(String) }]);

    // One kept before PBKDF2 (SHA-256 only): still a v1 device's, left out for v1.1, marked for re-entry.
    for (const { id } of [v11, v1])
      await t.db
        .update(devices)
        .set({
          adminPasswords: sql`admin_passwords || ${JSON.stringify([{ id: 'POLD', sha256: 'ab'.repeat(32) }])}::jsonb`,
        })
        .where(eq(devices.id, id));
    for (const { d, id } of [v11, v1]) {
      const more = await post(deviceEndpoints.adminPwdSave, { id, password: '97531086', reason: '保安' });
      expect(more.json().data.synced, more.body).toBe(true);
      const ids = d.state.adminPasswords.map((p) => p.id);
      expect(ids.includes('POLD')).toBe(d === v1.d);
      const list = (await get(deviceEndpoints.adminPwdList, { id })).json<{
        data: { id: string; needsReentry: boolean }[];
      }>().data;
      expect(list.find((p) => p.id === 'POLD')?.needsReentry).toBe(true);
      expect(list.filter((p) => p.id !== 'POLD').every((p) => !p.needsReentry)).toBe(true);
    }
  });

  test('a remote opening names the staff member, not a masked username as its credential', async () => {
    const res = await post(deviceEndpoints.openDoor, { id: v1.id, durationS: 3 });
    expect(res.statusCode, res.body).toBe(200);
    const rows = async () =>
      (await get(deviceEndpoints.openLogPage, { sn: 'V1-DOOR', method: 'remote' })).json<{
        data: { records: { credential: string | null; who: string | null }[] };
      }>().data.records;
    await until(async () => (await rows()).length > 0, 'the remote opening logged');
    expect((await rows())[0]).toMatchObject({ credential: null, who: adminName });
  });

  test('the command log: 系统自动 for what the server did itself, the staff member for what their edit caused', async () => {
    const commands = (await detailOf(v11.id)).commands;
    expect(commands.map((c) => c.byName)).not.toContain('system');
    // The sync after its hello was the server's own; reset-config and the password's sync were staff's.
    expect(commands.filter((c) => c.type === 'sync').at(-1)?.byName).toBe('系统自动');
    expect(commands.find((c) => c.type === 'reset-config')?.byName).toBe(adminName);

    // An enterprise group holding the device gains a member: the sync it causes is the staff's.
    const [{ id: buildingId }] = await t.db.select({ id: buildings.id }).from(buildings).limit(1);
    const day = 86_400_000;
    const group = await post(resourcePaths(kreatorUserGroup).save, {
      name: 'v1.1 测试门禁组',
      companyId: await createCompany(t.db, '测试公司'),
      buildingId,
      validFrom: new Date(Date.now() - day).toISOString(),
      validTo: new Date(Date.now() + 30 * day).toISOString(),
      status: 'enabled',
    });
    expect(group.statusCode, group.body).toBe(200);
    const groupId = group.json().data.id;
    expect((await post(kreatorDeviceEndpoints.add, { groupId, deviceIds: [v11.id] })).statusCode).toBe(200);
    const member = await post(kreatorUserEndpoints.save, { groupId, name: '王测试', phone: '17900008001' });
    expect(member.statusCode, member.body).toBe(200);
    await until(() => v11.d.state.access.length > 0, 'the member on the device');
    await until(
      async () => (await detailOf(v11.id)).commands.find((c) => c.type === 'sync')?.state === 'acked',
      'the sync acked',
    );
    expect((await detailOf(v11.id)).commands.find((c) => c.type === 'sync')?.byName).toBe(adminName);
  });
});
