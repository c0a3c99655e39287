import { describe, expect, it } from 'vitest';
import {
  checkDateRange,
  checkEmail,
  checkIdCard,
  checkNewPassword,
  checkPassword,
  checkOptionalEmail,
  checkOptionalPhone,
  checkPhone,
  checkUpload,
  checkUsername,
  cleanPayload,
  messages,
  newPasswordSchema,
  passwordEdit,
} from '../src/index.ts';

describe('username', () => {
  it('is required', () => {
    expect(checkUsername('')).toBe('请输入用户名!');
    expect(checkUsername('   ')).toBe('请输入用户名!');
    expect(checkUsername(undefined)).toBe('请输入用户名!');
    expect(checkUsername('admin')).toBeUndefined();
  });
});

describe('sign-in password', () => {
  it('is required, and taken as typed: spaces and an old short one pass', () => {
    expect(checkPassword('')).toBe('请输入密码');
    expect(checkPassword(undefined)).toBe('请输入密码');
    expect(checkPassword('   ')).toBeUndefined();
    expect(checkPassword('abc')).toBeUndefined();
  });
});

describe('new password', () => {
  it('is required with 请输入密码', () => {
    expect(checkNewPassword('')).toBe('请输入密码');
    expect(checkNewPassword(null)).toBe('请输入密码');
  });
  it('needs 8 to 64 characters, counted as typed', () => {
    expect(checkNewPassword('Pass@12')).toBe(messages.passwordTooShort);
    expect(checkNewPassword('Pass@123')).toBeUndefined();
    expect(checkNewPassword('a1'.repeat(32))).toBeUndefined();
    expect(checkNewPassword('a1'.repeat(32) + 'a')).toBe(messages.passwordTooLong);
    // Eight characters are eight as typed, not bytes; spaces are kept and count as symbols.
    expect(checkNewPassword('共享办公管理后台1')).toBeUndefined();
    expect(checkNewPassword(' 1234567')).toBeUndefined();
  });
  it('refuses what is guessed at once: one kind of character, or password in it', () => {
    for (const weak of ['12345678', 'password', 'Password1', 'abcdefgh', '共享办公管理后台', '!@#$%^&*'])
      expect(checkNewPassword(weak), weak).toBe(messages.passwordGuessable);
    expect(checkNewPassword('Admin@123')).toBeUndefined();
  });
  it('is the same rule on the server schema', () => {
    expect(newPasswordSchema.safeParse('1234567').error?.issues[0].message).toBe(messages.passwordTooShort);
    expect(newPasswordSchema.safeParse('password').error?.issues[0].message).toBe(messages.passwordGuessable);
    expect(passwordEdit.safeParse({ newPassword: 'Secret@123', ssoUserId: '3' }).data).toEqual({
      newPassword: 'Secret@123',
      ssoUserId: 3,
    });
  });
});

describe('phone', () => {
  it('is required and must be a mainland mobile number', () => {
    expect(checkPhone('')).toBe('请填写手机号');
    expect(checkPhone('13800138000')).toBeUndefined();
    expect(checkPhone('19912345678')).toBeUndefined();
    expect(checkPhone('12800138000')).toBe('请填写正确的手机号');
    expect(checkPhone('1380013800')).toBe('请填写正确的手机号');
    expect(checkPhone('138001380001')).toBe('请填写正确的手机号');
    expect(checkPhone('23800138000')).toBe('请填写正确的手机号');
  });
  it('optional variant checks the format only when given', () => {
    expect(checkOptionalPhone('')).toBeUndefined();
    expect(checkOptionalPhone(undefined)).toBeUndefined();
    expect(checkOptionalPhone('1')).toBe('请填写正确的手机号');
  });
});

describe('email', () => {
  it('is required and needs word@domain.tld', () => {
    expect(checkEmail('')).toBe('请填写邮箱');
    expect(checkEmail('a@b.cn')).toBeUndefined();
    expect(checkEmail('first.last@cowork.example')).toBeUndefined();
    expect(checkEmail('a@b')).toBe('请填写正确的邮箱');
    expect(checkEmail('ab.cn')).toBe('请填写正确的邮箱');
    expect(checkOptionalEmail('')).toBeUndefined();
  });
});

describe('identity card', () => {
  it('is required and exactly 18 long', () => {
    expect(checkIdCard('')).toBe('请填写身份证号');
    expect(checkIdCard('11010519491231002X')).toBeUndefined();
    expect(checkIdCard('11010519491231002')).toBe('请填写正确的身份证号');
  });
});

describe('date range', () => {
  it('needs two non-empty values', () => {
    expect(checkDateRange(['2026-01-01', '2026-01-31'])).toBeUndefined();
    expect(checkDateRange(['2026-01-01', ''])).toBe('请选择时间段');
    expect(checkDateRange(['2026-01-01'])).toBe('请选择时间段');
    expect(checkDateRange(undefined)).toBe('请选择时间段');
  });
});

describe('payload clean-up', () => {
  it('removes null, undefined and empty strings, keeps 0 and false', () => {
    expect(cleanPayload({ a: null, b: undefined, c: '', d: 0, e: false, f: 'x', g: [] })).toEqual({
      d: 0,
      e: false,
      f: 'x',
      g: [],
    });
  });
});

describe('upload options', () => {
  it('checks extension and size in KB', () => {
    expect(checkUpload({ name: 'a.PNG', size: 10 }, { accept: ['png', '.jpg'] })).toBeUndefined();
    expect(checkUpload({ name: 'a.exe', size: 10 }, { accept: ['png', 'jpg'] })).toBe(
      '文件类型不支持，请上传以下格式：png、jpg',
    );
    expect(checkUpload({ name: 'a.png', size: 2048 }, { maxSizeKb: 1 })).toBe(
      '文件过大，请上传不超过 1 KB 的文件',
    );
    expect(checkUpload({ name: 'noext', size: 1 }, {})).toBeUndefined();
  });
});
