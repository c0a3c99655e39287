/**
 * 重启 (v1.1 `reboot`) through the embedded broker with simulated devices: answered once the device
 * acked (it then restarts and says hello again), audited with its reason and shown in the device's
 * commands; a v1 device is refused before anything is sent; only staff who may edit devices send it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { deviceEndpoints, deviceMessages, type DeviceDetail } from '@cowork/contract';
import { doorFixture } from './device-fixture.ts';
import { demo, type TestApp, until } from './helper.ts';

describe('reboot through the embedded broker', () => {
  const doors = doorFixture({
    enrolKey: 'test-enrol-key-reboot',
    device: { heartbeatMs: 60_000 },
    inRoom: true,
    idempotent: true,
  });
  const { get, post, registered } = doors;
  let t: TestApp;
  const detailOf = async (id: number) =>
    (await get(`${deviceEndpoints.detail}/${id}`)).json<{ data: DeviceDetail }>().data;

  beforeAll(async () => {
    t = await doors.start();
  });

  afterAll(() => doors.close());

  test('a v1.1 device acks the reboot, restarts and says hello again; the reason is audited and the command listed', async () => {
    const { d, id } = await registered('RB-A', { protocol: '1.1' });
    const syncs = d.commands.filter((c) => c.type === 'sync').length;
    const res = await post(deviceEndpoints.reboot, { id, reason: '屏幕卡死' });
    expect(res.statusCode, res.body).toBe(200);
    expect(d.commands.some((c) => c.type === 'reboot')).toBe(true);
    // Back after the restart: its hello brings its whole state again.
    await until(
      () => d.commands.filter((c) => c.type === 'sync').length > syncs,
      'the sync after the restart',
    );

    const detail = await detailOf(id);
    expect(detail.commands.find((c) => c.type === 'reboot')).toMatchObject({
      state: 'acked',
      reason: '屏幕卡死',
    });
    const audit = await t.db.execute(
      `select after from audit_logs where resource = 'device' and action = 'reboot' order by id desc limit 1`,
    );
    expect(JSON.stringify(audit)).toContain('屏幕卡死');
    expect(JSON.stringify(audit)).toContain('acked');
  });

  test('a reason is optional', async () => {
    const { id } = await registered('RB-B', { protocol: '1.1' });
    const res = await post(deviceEndpoints.reboot, { id });
    expect(res.statusCode, res.body).toBe(200);
  });

  test('a v1 device is refused with a sentence, and nothing is sent', async () => {
    const { d, id } = await registered('RB-V1');
    const res = await post(deviceEndpoints.reboot, { id, reason: '试试' });
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(deviceMessages.rebootUnsupported('门 RB-V1'));
    expect(d.commands.some((c) => c.type === 'reboot')).toBe(false);
    expect((await detailOf(id)).commands.some((c) => c.type === 'reboot')).toBe(false);
  });

  test('a device that refuses says why; an unknown device is 404; a bad reason names the field', async () => {
    const { id } = await registered('RB-C', {
      protocol: '1.1',
      answer: (c) => (c.type === 'reboot' ? { ok: false, error: '正在升级固件' } : { ok: true }),
    });
    const refused = await post(deviceEndpoints.reboot, { id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(deviceMessages.refused('门 RB-C', '正在升级固件'));
    const missing = await post(deviceEndpoints.reboot, { id: 999_999 });
    expect(missing.statusCode).toBe(404);
    const long = await post(deviceEndpoints.reboot, { id, reason: '长'.repeat(201) });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toContain('操作原因');
  });

  test('财务 may not reboot a door (403), and nothing is sent', async () => {
    const { d, id } = await registered('RB-D', { protocol: '1.1' });
    const caiwu = await t.auth(...demo.caiwu);
    const res = await post(deviceEndpoints.reboot, { id }, caiwu);
    expect(res.statusCode).toBe(403);
    expect(d.commands.some((c) => c.type === 'reboot')).toBe(false);
  });
});
