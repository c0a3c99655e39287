import { describe, expect, test } from 'vitest';
import {
  cardRuleSaveBody,
  deviceCommand,
  deviceCommandLabels,
  deviceCommandRecord,
  deviceCommandTypes,
  deviceMessages,
  deviceOpenDoorBody,
  deviceRegisterBody,
  isDeviceCommandType,
  openLogQuery,
  OPEN_DOOR_DEFAULT_S,
} from '../src/index.ts';

const messageOf = (result: { error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
  result.error?.issues[0].message;

describe('the door-device family', () => {
  test('the command list, the labels and the union name the same commands', () => {
    const inUnion = deviceCommand.options.map((o) => o.shape.type.value);
    expect([...deviceCommandTypes].sort()).toEqual([...inUnion].sort());
    expect(Object.keys(deviceCommandLabels).sort()).toEqual([...inUnion].sort());
    expect(isDeviceCommandType('open-door')).toBe(true);
    expect(isDeviceCommandType('toString')).toBe(false);
  });

  test("a command's type decides its params", () => {
    expect(
      deviceCommand.safeParse({ type: 'open-door', params: { durationS: 5, by: 'admin' } }).success,
    ).toBe(true);
    expect(
      deviceCommand.safeParse({ type: 'open-door', params: { durationS: 31, by: 'admin' } }).success,
    ).toBe(false);
    expect(deviceCommand.safeParse({ type: 'reset-config', params: { secretBox: 'x' } }).success).toBe(true);
    expect(deviceCommand.safeParse({ type: 'reset-config', params: {} }).success).toBe(false);
    expect(deviceCommand.safeParse({ type: 'reboot', params: {} }).success).toBe(true);
    expect(deviceCommand.safeParse({ type: 'lease', params: { version: 3 } }).success).toBe(false);
    const sync = { now: 1, access: [], adminPasswords: [{ id: 'P1', sha256: 'ab' }], cardRules: [] };
    expect(deviceCommand.safeParse({ type: 'sync', params: sync }).success).toBe(true);
    expect(deviceCommandRecord.shape.type.safeParse('firmware').success).toBe(true);
    expect(deviceCommandRecord.shape.type.safeParse('upgrade').success).toBe(false);
  });

  test('bodies refuse with the sentences the console shows', () => {
    expect(messageOf(deviceRegisterBody.safeParse({ sn: 'A-1', name: '  ' }))).toBe('请填写设备名称');
    expect(messageOf(deviceRegisterBody.safeParse({ sn: 'A-1', name: 'x'.repeat(51) }))).toBe(
      '设备名称最多 50 个字符',
    );
    expect(messageOf(deviceRegisterBody.safeParse({ sn: 'a b', name: '门' }))).toBe(deviceMessages.snInvalid);
    expect(deviceOpenDoorBody.parse({ id: '3' })).toEqual({ id: 3, durationS: OPEN_DOOR_DEFAULT_S });
    // An empty card number asks for one; a wrong one says what a card number is.
    const card = { id: 1, validFrom: 1, validTo: 2 };
    expect(messageOf(cardRuleSaveBody.safeParse({ ...card, cardNo: '' }))).toBe('请填写卡号');
    expect(messageOf(cardRuleSaveBody.safeParse({ ...card, cardNo: 'AB' }))).toBe(
      deviceMessages.cardNoInvalid,
    );
    const backwards = cardRuleSaveBody.safeParse({ id: 1, cardNo: 'AB12', validFrom: 2, validTo: 1 });
    expect(backwards.error?.issues[0]).toMatchObject({
      message: deviceMessages.cardRangeInvalid,
      path: ['validTo'],
    });
  });

  test('open log bounds: a day or a time with offset', () => {
    expect(openLogQuery.safeParse({ atFrom: '2026-11-25', atTo: '2026-11-25T08:00:00+08:00' }).success).toBe(
      true,
    );
    expect(messageOf(openLogQuery.safeParse({ atFrom: '2026-11-25 08:00' }))).toBe(
      '开始时间格式不正确，应为日期（如 2026-11-25）或带时区的时间',
    );
    expect(messageOf(openLogQuery.safeParse({ phone: '138a' }))).toBe('手机号只能是数字，最多 11 位');
  });
});
