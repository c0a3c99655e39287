/**
 * 紧急模式 through the embedded broker with simulated devices: a building's lockdown reaches the
 * v1.1 devices in and under it in their sync (applied), a v1 device answers unsupported, an offline
 * one pending until its next hello brings the mode; remote open is refused while locked down; the
 * change needs a reason and hardware:emergency (运营 does not hold it by default), is audited, and the
 * banner's list shows it until the space is back to normal.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  deviceEndpoints,
  doorOperationEndpoints,
  EMERGENCY_PERMISSION,
  spaceModePreviewPath,
  type SpaceModeAnswer,
  type SpaceModePreview,
  type SpaceModeRecord,
} from '@cowork/contract';
import { auditLogs, buildings, ssoMenus, ssoRoles, spaces } from '../src/db/schema.ts';
import { SimulatedDevice } from '../src/device-link/simulator.ts';
import { financeRole, operationRole, permissionsOf } from '../src/seed/roles.ts';
import { buildTestApp, callApi, createRole, createUser, demo, type TestApp, until } from './helper.ts';

const enrolKey = 'test-enrol-key-space-mode';

describe('emergency modes', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let url: string;
  const started: SimulatedDevice[] = [];
  const space = { building: 0, floor: 0, room: 0 };

  const api = <T>(method: 'GET' | 'POST', path: string, payload?: object) =>
    callApi<T>(t, admin, method, path, payload);
  /** Without a reason when `reason` is undefined (a body that leaves it out). */
  const setMode = (spaceId: number, mode: string, reason: unknown) =>
    api<SpaceModeAnswer>('POST', doorOperationEndpoints.spaceMode, { spaceId, mode, reason });
  const statusOf = async (sn: string) =>
    (await api<{ records: { status: string }[] }>('GET', `${deviceEndpoints.page}?sn=${sn}`)).body.data
      .records[0]?.status;
  const lastSync = (d: SimulatedDevice) => d.commands.findLast((c) => c.type === 'sync');

  async function device(options: Partial<ConstructorParameters<typeof SimulatedDevice>[0]> & { sn: string }) {
    const d = new SimulatedDevice({ url, enrolKey, heartbeatMs: 1_000, ...options });
    await d.connect();
    started.push(d);
    return d;
  }

  /** Enrols, registers into `spaceId` and connects with the secret; answers the device and its id. */
  async function registered(sn: string, protocol: '1' | '1.1', spaceId: number) {
    const enrolling = await device({ sn, protocol });
    await until(
      async () =>
        (await api<{ sn: string }[]>('GET', deviceEndpoints.unPulledList)).body.data.some((d) => d.sn === sn),
      `${sn} waiting`,
    );
    const res = await api<{ id: number; secret: string }>('POST', deviceEndpoints.register, {
      sn,
      name: `门 ${sn}`,
      spaceId,
    });
    expect(res.status, res.raw).toBe(200);
    await enrolling.close();
    const d = await device({ sn, secret: res.body.data.secret, protocol });
    await until(async () => (await statusOf(sn)) === 'online', `${sn} online`);
    await until(() => lastSync(d) !== undefined, `${sn} synced`);
    return { d, id: res.body.data.id, secret: res.body.data.secret };
  }

  let room: Awaited<ReturnType<typeof registered>>;
  let floor: Awaited<ReturnType<typeof registered>>;
  let v1: Awaited<ReturnType<typeof registered>>;
  let away: Awaited<ReturnType<typeof registered>>;

  beforeAll(async () => {
    t = await buildTestApp({ config: { deviceEnrolKey: enrolKey } });
    await t.app.ready();
    admin = await t.auth(...demo.admin);
    url = t.app.devices.status().url!;
    const [{ id: buildingId }] = await t.db.select({ id: buildings.id }).from(buildings).limit(1);
    const add = async (name: string, kind: 'building' | 'floor' | 'room', parentId: number | null) => {
      const [row] = await t.db
        .insert(spaces)
        .values({ name, kind, parentId, buildingId })
        .returning({ id: spaces.id });
      return row.id;
    };
    space.building = await add('应急楼', 'building', null);
    space.floor = await add('应急楼 9F', 'floor', space.building);
    space.room = await add('应急室 901', 'room', space.floor);
    room = await registered('MODE-ROOM', '1.1', space.room);
    floor = await registered('MODE-FLOOR', '1.1', space.floor);
    v1 = await registered('MODE-V1', '1', space.building);
    away = await registered('MODE-AWAY', '1.1', space.room);
    await away.d.close();
    await until(async () => (await statusOf('MODE-AWAY')) === 'offline', 'MODE-AWAY offline');
  });

  afterAll(async () => {
    await Promise.all(started.map((d) => d.close().catch(() => undefined)));
    await t?.close();
  });

  test('hardware:emergency is an action of 物理空间 the super admin holds, and 运营 and 财务 do not', async () => {
    const [menu] = await t.db.select().from(ssoMenus).where(eq(ssoMenus.permission, EMERGENCY_PERMISSION));
    expect(menu).toMatchObject({ type: 'action', name: '紧急模式' });
    const [page] = await t.db.select().from(ssoMenus).where(eq(ssoMenus.id, menu.parentId!));
    expect(page.url).toBe('/hardware/space');
    expect(permissionsOf(operationRole)).toContain('hardware:space:edit');
    expect(permissionsOf(operationRole)).not.toContain(EMERGENCY_PERMISSION);
    expect(permissionsOf(financeRole)).not.toContain(EMERGENCY_PERMISSION);
    const [operation] = await t.db
      .select({ permissions: ssoRoles.permissions })
      .from(ssoRoles)
      .where(eq(ssoRoles.code, 'operation'));
    expect(operation.permissions).not.toContain(EMERGENCY_PERMISSION);

    const yunying = await t.auth(...demo.yunying);
    const refused = await callApi(t, yunying, 'POST', doorOperationEndpoints.spaceMode, {
      spaceId: space.building,
      mode: 'lockdown',
      reason: '演练',
    });
    expect(refused.status).toBe(403);
    expect(
      (await callApi(t, yunying, 'GET', `${spaceModePreviewPath}?spaceId=${space.building}`)).status,
    ).toBe(403);
    // Any hardware screen shows the banner: 运营 reads the modes.
    expect((await callApi(t, yunying, 'GET', doorOperationEndpoints.spaceModes)).status).toBe(200);
    const [{ mode }] = await t.db
      .select({ mode: spaces.mode })
      .from(spaces)
      .where(eq(spaces.id, space.building));
    expect(mode).toBe('normal');

    // Granted by name (as on the role screen), the code alone opens it.
    await createRole(t.db, { code: 'emergency_duty', name: '应急值守', permissions: [EMERGENCY_PERMISSION] });
    await createUser(t.db, { username: 'yingji', password: 'Yingji@2026x', roleCodes: ['emergency_duty'] });
    const duty = await t.auth('yingji', 'Yingji@2026x');
    const preview = await callApi(t, duty, 'GET', `${spaceModePreviewPath}?spaceId=${space.building}`);
    expect(preview.status, preview.raw).toBe(200);
    expect((await callApi(t, duty, 'GET', doorOperationEndpoints.spaceModes)).status).toBe(200);
  });

  test('a reason is required (400 naming 原因), the mode must be one of three, the space must exist', async () => {
    for (const reason of [undefined, '', '   ', 'x'.repeat(201)]) {
      const res = await setMode(space.building, 'lockdown', reason);
      expect(res.status, res.raw).toBe(400);
      expect(res.body.msg).toContain('原因');
    }
    const bad = await setMode(space.building, 'panic', '演练');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('紧急模式');
    const missing = await setMode(999_999, 'lockdown', '演练');
    expect(missing.status).toBe(404);
    expect(missing.body.msg).toBe('该空间不存在或已删除，请刷新列表后重试');
    const [{ mode }] = await t.db
      .select({ mode: spaces.mode })
      .from(spaces)
      .where(eq(spaces.id, space.building));
    expect(mode).toBe('normal');
  });

  test('the preview counts the doors in and under the space', async () => {
    const res = await api<SpaceModePreview>('GET', `${spaceModePreviewPath}?spaceId=${space.building}`);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data).toMatchObject({ devices: 4, online: 3, unsupported: 1, mode: 'normal' });
    expect(res.body.data.path).toContain('应急楼');
    const ofRoom = await api<SpaceModePreview>('GET', `${spaceModePreviewPath}?spaceId=${space.room}`);
    expect(ofRoom.body.data).toMatchObject({ devices: 2, online: 1, unsupported: 0 });
  });

  test('lockdown of a building: applied by its online v1.1 devices, unsupported by v1, pending offline', async () => {
    const res = await setMode(space.building, 'lockdown', '发现可疑人员');
    expect(res.status, res.raw).toBe(200);
    const states = Object.fromEntries(res.body.data.devices.map((d) => [d.name, d.state]));
    expect(states).toEqual({
      '门 MODE-ROOM': 'applied',
      '门 MODE-FLOOR': 'applied',
      '门 MODE-V1': 'unsupported',
      '门 MODE-AWAY': 'pending',
    });
    for (const d of [room.d, floor.d]) {
      expect(lastSync(d)?.params.mode).toBe('lockdown');
      expect(d.state.mode).toBe('lockdown');
    }
    expect(res.body.msg).toContain('封锁');

    const banner = await api<SpaceModeRecord[]>('GET', doorOperationEndpoints.spaceModes);
    expect(banner.body.data).toEqual([
      expect.objectContaining({
        id: space.building,
        name: '应急楼',
        mode: 'lockdown',
        reason: '发现可疑人员',
        changedBy: expect.any(String),
        changedAt: expect.any(String),
      }),
    ]);

    const [row] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, 'space'), eq(auditLogs.resourceId, String(space.building))));
    expect(row).toMatchObject({
      action: 'mode',
      before: { mode: 'normal', reason: null },
      after: { mode: 'lockdown', reason: '发现可疑人员' },
    });
  });

  test('setting the mode it already has answers the same list', async () => {
    const res = await setMode(space.building, 'lockdown', '仍在排查');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.devices.map((d) => d.state).sort()).toEqual(
      ['applied', 'applied', 'pending', 'unsupported'].sort(),
    );
  });

  test('remote open is refused while locked down, saying why; release below wins over it', async () => {
    for (const target of [room, v1]) {
      const before = target.d.commands.filter((c) => c.type === 'open-door').length;
      const res = await api('POST', deviceEndpoints.openDoor, { id: target.id, durationS: 5 });
      expect(res.status, res.raw).toBe(409);
      expect(res.body.msg).toBe(
        `门“门 ${target.d.sn}”所在空间“应急楼”已封锁（原因：仍在排查），远程开门已停用；解除封锁后再试`,
      );
      expect(target.d.commands.filter((c) => c.type === 'open-door')).toHaveLength(before);
    }
    // 全部常开 of the room (an evacuation) overrides the building's lockdown for the doors in it.
    const release = await setMode(space.room, 'release', '9F 疏散');
    expect(release.body.data.devices.find((d) => d.id === room.id)?.state).toBe('applied');
    expect(room.d.state.mode).toBe('release');
    expect(floor.d.state.mode).toBe('lockdown');
    const open = await api('POST', deviceEndpoints.openDoor, { id: room.id, durationS: 5 });
    expect(open.status, open.raw).toBe(200);
    expect((await setMode(space.room, 'normal', '疏散结束')).status).toBe(200);
    expect(room.d.state.mode).toBe('lockdown');
  });

  test('an offline device gets the mode at its next hello', async () => {
    const back = await device({ sn: 'MODE-AWAY', secret: away.secret, protocol: '1.1' });
    await until(() => lastSync(back)?.params.mode === 'lockdown', 'MODE-AWAY got lockdown');
    await until(() => back.state.mode === 'lockdown', 'MODE-AWAY holds lockdown');
  });

  test('back to normal: every device gets normal and the banner is empty', async () => {
    const res = await setMode(space.building, 'normal', '排查完毕');
    expect(res.status, res.raw).toBe(200);
    expect(res.body.data.devices.filter((d) => d.state === 'applied')).toHaveLength(3);
    for (const d of [room.d, floor.d]) expect(d.state.mode).toBe('normal');
    const banner = await api<SpaceModeRecord[]>('GET', doorOperationEndpoints.spaceModes);
    expect(banner.body.data.filter((s) => s.id === space.building)).toEqual([]);
    const open = await api('POST', deviceEndpoints.openDoor, { id: floor.id, durationS: 5 });
    expect(open.status, open.raw).toBe(200);
  });
});
