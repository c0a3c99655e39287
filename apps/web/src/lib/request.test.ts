import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Cookies from 'js-cookie';
import { AxiosError } from 'axios';
import {
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_SECRET,
  ERROR_TOAST_SECONDS,
  USER_INFO_KEY,
  endpoints,
  messages,
} from '@cowork/contract';
import { mockAdapter, paramsOf, visit, type Handler } from '../test/mock-adapter.ts';
import { resetNavigation, setNavigation, takeSignOutReason } from './navigation.ts';
import {
  RequestError,
  api,
  fileNameOf,
  request,
  requestPasswordToken,
  resetRefreshState,
  setToast,
  withContentType,
} from './request.ts';
import { setTokens } from './session.ts';

const toast = vi.fn();
const navigate = vi.fn();
const reload = vi.fn();
const originalAdapter = request.defaults.adapter;

function serve(handler: Handler) {
  const adapter = mockAdapter(handler);
  request.defaults.adapter = adapter;
  return adapter;
}

const ok = (data: unknown) => ({ status: 200, data: { code: 200, msg: '操作成功', data } });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  toast.mockReset();
  navigate.mockReset();
  reload.mockReset();
  setToast(toast);
  setNavigation({ navigate, reload });
  resetRefreshState();
  visit('/system/log?current=2');
});

afterEach(() => {
  request.defaults.adapter = originalAdapter;
  resetNavigation();
});

describe('success and envelope errors', () => {
  it('resolves with data when the body code is 200', async () => {
    serve(() => ok({ id: 7 }));
    await expect(api.get(endpoints.userInfo)).resolves.toEqual({ id: 7 });
    expect(toast).not.toHaveBeenCalled();
  });

  it('treats the token endpoint as success without an envelope', async () => {
    const token = {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'bearer',
      expires_in: 7200,
      user_info: {},
    };
    const adapter = serve(() => ({ status: 200, data: token }));
    await expect(requestPasswordToken('admin', 'Admin@123')).resolves.toEqual(token);
    const [call] = adapter.calls;
    expect(call.url).toBe(endpoints.token);
    expect(String(call.headers['Content-Type'])).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(String(call.data)))).toEqual({
      grant_type: 'password',
      username: 'admin',
      password: 'Admin@123',
      client_id: ADMIN_CLIENT_ID,
      client_secret: ADMIN_CLIENT_SECRET,
    });
  });

  it('toasts the body msg for 3 seconds and rejects when the code is not 200', async () => {
    serve(() => ({
      status: 200,
      data: { code: 409, msg: '数据已被修改或已存在，请刷新后重试', data: null },
    }));
    const failure = api.post('/api/x/save', { a: 1 });
    await expect(failure).rejects.toBeInstanceOf(RequestError);
    await expect(failure).rejects.toMatchObject({ code: 409 });
    expect(toast).toHaveBeenCalledWith('数据已被修改或已存在，请刷新后重试', ERROR_TOAST_SECONDS);
    expect(ERROR_TOAST_SECONDS).toBe(3);
  });

  it('toasts 服务器错误 for an empty body', async () => {
    serve(() => ({ status: 200, data: '' }));
    await expect(api.get('/api/x/page')).rejects.toBeInstanceOf(RequestError);
    expect(toast).toHaveBeenCalledWith(messages.serverError, 3);
    expect(messages.serverError).toContain('服务器错误');
  });

  it('toasts 服务器错误 for a success status other than 200', async () => {
    serve(() => ({ status: 204 }));
    await expect(api.deleteById('/api/x/remove', 1)).rejects.toBeInstanceOf(RequestError);
    expect(toast).toHaveBeenCalledWith(messages.serverError, 3);
  });
});

describe('transport errors', () => {
  it('toasts the server msg of any other error status', async () => {
    serve(() => ({ status: 403, data: { code: 403, msg: messages.noPermission, data: null } }));
    await expect(api.get('/api/x/page')).rejects.toMatchObject({ code: 403, status: 403 });
    expect(toast).toHaveBeenCalledWith(messages.noPermission, 3);
  });

  it("quotes the server's request id (请求编号) in the toast so a user can report it", async () => {
    serve(() => ({
      status: 500,
      data: { code: 500, msg: messages.serverError, data: null },
      headers: { 'x-request-id': '5f2c9a0b1d3e4f67' },
    }));
    await expect(api.get('/api/x/page')).rejects.toMatchObject({
      status: 500,
      requestId: '5f2c9a0b1d3e4f67',
    });
    expect(toast).toHaveBeenCalledWith(messages.serverError, 3, '5f2c9a0b1d3e4f67');

    toast.mockReset();
    serve(() => ({
      status: 200,
      data: { code: 409, msg: '数据已被修改或已存在，请刷新后重试', data: null },
      headers: { 'x-request-id': 'edge-7f3a9c1e2b' },
    }));
    await expect(api.post('/api/x/save', { a: 2 })).rejects.toMatchObject({ code: 409 });
    expect(toast).toHaveBeenCalledWith('数据已被修改或已存在，请刷新后重试', 3, 'edge-7f3a9c1e2b');

    // A header that is not a plain short token is not shown.
    toast.mockReset();
    serve(() => ({ status: 502, data: '', headers: { 'x-request-id': '<script>' } }));
    await expect(api.get('/api/x/page')).rejects.toMatchObject({ status: 502, requestId: undefined });
    expect(toast).toHaveBeenCalledWith(messages.serverError, 3);
  });

  it('falls back to 服务器错误 when an error status has no msg', async () => {
    serve(() => ({ status: 502, data: '<html>Bad Gateway</html>' }));
    await expect(api.get('/api/x/page')).rejects.toMatchObject({ status: 502 });
    expect(toast).toHaveBeenCalledWith(messages.serverError, 3);
  });

  it('names a lost connection in Chinese, or else keeps the error message', async () => {
    request.defaults.adapter = async (config) => {
      throw new AxiosError('Network Error', AxiosError.ERR_NETWORK, config);
    };
    await expect(api.get('/api/x/page')).rejects.toBeInstanceOf(RequestError);
    expect(toast).toHaveBeenLastCalledWith(messages.networkError, 3);

    request.defaults.adapter = async (config) => {
      throw new AxiosError('光纤被挖断了', 'ERR_SOMETHING', config);
    };
    await expect(api.get('/api/x/page')).rejects.toBeInstanceOf(RequestError);
    expect(toast).toHaveBeenLastCalledWith('光纤被挖断了', 3);
  });

  it('on 401 clears the session and goes to login with the current address', async () => {
    setTokens('access', 'refresh');
    localStorage.setItem(USER_INFO_KEY, JSON.stringify({ nickname: '系统管理员' }));
    serve(() => ({ status: 401, data: { code: 401, msg: messages.unauthorized, data: null } }));
    await expect(api.get(endpoints.userInfo)).rejects.toMatchObject({ code: 401 });
    expect(Cookies.get('access_token')).toBeUndefined();
    expect(Cookies.get('refresh_token')).toBeUndefined();
    expect(localStorage.getItem(USER_INFO_KEY)).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login?url=%2Fsystem%2Flog%3Fcurrent%3D2');
    expect(toast).not.toHaveBeenCalled();
    // The login page says why, once.
    expect(takeSignOutReason()).toBe(messages.unauthorized);
    expect(takeSignOutReason()).toBeNull();
  });

  it('a call whose token was replaced on its way (a renewal ended it) goes again with the new one', async () => {
    setTokens('access-old', 'refresh');
    let answerOld: () => void = () => undefined;
    const adapter = serve((config) => {
      if (config.headers.get('Authorization') === 'Bearer access-new') return ok({ rows: 3 });
      // The old token's answer comes after the renewal stored the new pair.
      return new Promise((resolve) => {
        answerOld = () =>
          resolve({ status: 401, data: { code: 401, msg: messages.unauthorized, data: null } });
      });
    });
    const call = api.get('/api/x/page');
    await flush();
    setTokens('access-new', 'refresh-new');
    answerOld();
    await expect(call).resolves.toEqual({ rows: 3 });
    expect(adapter.calls.map((c) => c.headers.get('Authorization'))).toEqual([
      'Bearer access-old',
      'Bearer access-new',
    ]);
    expect(navigate).not.toHaveBeenCalled();
    expect(Cookies.get('access_token')).toBe('access-new');
  });

  it('a call refused with the current token is not sent again: 401 signs out', async () => {
    setTokens('access', 'refresh');
    const adapter = serve(() => ({
      status: 401,
      data: { code: 401, msg: messages.unauthorized, data: null },
    }));
    await expect(api.get('/api/x/page')).rejects.toMatchObject({ code: 401 });
    expect(adapter.calls).toHaveLength(1);
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('on 401 while on a login page stays there', async () => {
    visit('/login?url=%2F');
    serve(() => ({ status: 401, data: { code: 401, msg: messages.unauthorized, data: null } }));
    await expect(api.get(endpoints.userInfo)).rejects.toMatchObject({ code: 401 });
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('424: the one-time token refresh', () => {
  const expired = { status: 424, data: { code: 424, msg: messages.tokenExpired, data: null } };

  it('refreshes exactly once for parallel calls, stores the tokens and reloads', async () => {
    setTokens('old-access', 'old-refresh');
    localStorage.setItem(USER_INFO_KEY, JSON.stringify({ nickname: '旧昵称', theme: 'dark' }));
    const adapter = serve(async (config) => {
      if (config.url === endpoints.token) {
        await flush();
        return {
          status: 200,
          data: {
            access_token: 'new-access',
            refresh_token: 'new-refresh',
            token_type: 'bearer',
            expires_in: 7200,
            user_info: { nickname: '系统管理员', ssoUserId: 1 },
          },
        };
      }
      return expired;
    });

    const results = await Promise.allSettled([
      api.get(endpoints.userInfo),
      api.get(endpoints.menuUserTree),
      api.get(endpoints.auditLogPage, { current: 1 }),
    ]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as RequestError).code === 424)).toBe(
      true,
    );
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));

    const refreshes = adapter.calls.filter((c) => c.url === endpoints.token);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0].method).toBe('post');
    expect(paramsOf(refreshes[0])).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'old-refresh',
      client_id: ADMIN_CLIENT_ID,
      client_secret: ADMIN_CLIENT_SECRET,
    });
    expect(Cookies.get('access_token')).toBe('new-access');
    expect(Cookies.get('refresh_token')).toBe('new-refresh');
    expect(JSON.parse(localStorage.getItem(USER_INFO_KEY)!)).toEqual({
      nickname: '系统管理员',
      ssoUserId: 1,
      theme: 'dark',
    });
    expect(toast).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();

    // A late 424 before the reload takes effect does not refresh again.
    await expect(api.get(endpoints.userInfo)).rejects.toMatchObject({ code: 424 });
    await flush();
    expect(adapter.calls.filter((c) => c.url === endpoints.token)).toHaveLength(1);
  });

  it('without a refresh_token clears the session and goes to login', async () => {
    Cookies.set('access_token', 'old-access');
    localStorage.setItem(USER_INFO_KEY, '{}');
    const adapter = serve(() => expired);
    await expect(api.get(endpoints.userInfo)).rejects.toMatchObject({ code: 424 });
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/login?url=%2Fsystem%2Flog%3Fcurrent%3D2'));
    expect(adapter.calls.some((c) => c.url === endpoints.token)).toBe(false);
    expect(Cookies.get('access_token')).toBeUndefined();
    expect(localStorage.getItem(USER_INFO_KEY)).toBeNull();
    expect(reload).not.toHaveBeenCalled();
  });

  it('when the refresh fails clears the session and goes to login', async () => {
    setTokens('old-access', 'reused-refresh');
    serve((config) =>
      config.url === endpoints.token
        ? { status: 401, data: { code: 401, msg: messages.refreshInvalid, data: null } }
        : expired,
    );
    await expect(api.get(endpoints.menuUserTree)).rejects.toMatchObject({ code: 424 });
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/login?url=%2Fsystem%2Flog%3Fcurrent%3D2'));
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(Cookies.get('access_token')).toBeUndefined();
    expect(Cookies.get('refresh_token')).toBeUndefined();
    expect(reload).not.toHaveBeenCalled();
    expect(toast).not.toHaveBeenCalled();
    expect(takeSignOutReason()).toBe(messages.sessionExpired);
  });
});

describe('headers and call styles', () => {
  it('sends an empty Authorization header without a token, and the bearer token with one', async () => {
    const adapter = serve(() => ok(null));
    await api.get(endpoints.userInfo);
    expect(adapter.calls[0].headers.Authorization).toBe('');
    setTokens('abc', 'def');
    await api.get(endpoints.userInfo);
    expect(adapter.calls[1].headers.Authorization).toBe('Bearer abc');
  });

  it('shapes each call style and lets a call override the Content-Type', async () => {
    const adapter = serve(() => ok(null));
    await api.post('/api/r/save', { a: 1 });
    await api.get('/api/r/page', { current: 1, size: 10 });
    await api.getById('/api/r/detail', 5);
    await api.delete('/api/r/remove', { ids: [1, 2] });
    await api.deleteById('/api/r/remove', 4);
    await api.put('/api/r/edit', { id: 6 });
    await api.post('/api/r/import', 'a,b', withContentType('text/csv'));
    const seen = adapter.calls.map((c) => [c.method, c.url, c.params ?? null, c.data ?? null]);
    expect(seen).toEqual([
      ['post', '/api/r/save', null, JSON.stringify({ a: 1 })],
      ['get', '/api/r/page', { current: 1, size: 10 }, null],
      ['get', '/api/r/detail/5', null, null],
      ['delete', '/api/r/remove', null, JSON.stringify({ ids: [1, 2] })],
      ['delete', '/api/r/remove/4', null, null],
      ['put', '/api/r/edit', null, JSON.stringify({ id: 6 })],
      ['post', '/api/r/import', null, 'a,b'],
    ]);
    expect(String(adapter.calls[6].headers['Content-Type'])).toBe('text/csv');
    expect(adapter.calls[0].timeout).toBe(500_000);
  });
});

describe('file downloads', () => {
  it('names the file from Content-Disposition, preferring the UTF-8 name of RFC 5987', () => {
    expect(
      fileNameOf(
        `attachment; filename="_____-20261121.xlsx"; filename*=UTF-8''${encodeURIComponent('会员卡订单-20261121.xlsx')}`,
      ),
    ).toBe('会员卡订单-20261121.xlsx');
    expect(fileNameOf('attachment; filename="template.xlsx"')).toBe('template.xlsx');
    expect(fileNameOf('attachment; filename="a.xlsx"; filename*=UTF-8\'\'%E4%ZZ')).toBe('a.xlsx');
    expect(fileNameOf(undefined)).toBeUndefined();
  });

  it("shows the server's message when a download is refused (the error body arrives as a Blob)", async () => {
    const envelope = { code: 403, msg: '您没有权限进行此操作', data: null };
    serve(() => ({
      status: 403,
      data: new Blob([JSON.stringify(envelope)], { type: 'application/json' }),
    }));
    await expect(api.downloadFile('/api/order/admin/v1/user-card-order/export')).rejects.toMatchObject({
      message: envelope.msg,
      code: 403,
    });
    expect(toast).toHaveBeenCalledWith(envelope.msg, ERROR_TOAST_SECONDS);
  });
});

describe('Idempotency-Key on creates', () => {
  const keyOf = (config: { headers: { get(name: string): unknown } }) =>
    config.headers.get('Idempotency-Key');

  it('the same create sent twice before an answer carries one key; after a success, a new one', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const adapter = serve(async () => {
      await gate;
      return ok({ id: 1 });
    });
    const body = { name: '官网', code: 'website' };
    const first = api.post('/api/x/save', body);
    const second = api.post('/api/x/save', { ...body });
    await flush();
    release();
    await Promise.all([first, second]);
    const [a, b] = adapter.calls.map(keyOf);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).toBe(a);

    await api.post('/api/x/save', body);
    expect(keyOf(adapter.calls[2])).not.toBe(a);
  });

  it('a create retried after a failure keeps its key; other values get another', async () => {
    let fail = true;
    const adapter = serve(() =>
      fail ? { status: 503, data: { code: 503, msg: '服务暂时不可用' } } : ok(null),
    );
    await expect(api.post('/api/x/save', { name: 'A' })).rejects.toBeInstanceOf(RequestError);
    fail = false;
    await api.post('/api/x/save', { name: 'A' });
    await api.post('/api/x/save', { name: 'B' });
    const [first, retry, other] = adapter.calls.map(keyOf);
    expect(retry).toBe(first);
    expect(other).not.toBe(first);
  });

  it('edits, reads and sign-in carry none', async () => {
    const adapter = serve(() => ok(null));
    await api.put('/api/x/edit', { id: 1 });
    await api.get('/api/x/page');
    expect(adapter.calls.map(keyOf)).toEqual([undefined, undefined]);
  });
});

describe('renewal ahead of expiry', () => {
  const pair = (n: number) => ({
    access_token: `access-${n}`,
    refresh_token: `refresh-${n}`,
    token_type: 'bearer',
    expires_in: 10,
    user_info: {},
  });

  it('a call after most of the token’s life renews it first, silently, and goes on with the new one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      setTokens('access-0', 'refresh-0', undefined, 10);
      const adapter = serve((config) =>
        config.url === endpoints.token ? { status: 200, data: pair(1) } : ok({ saved: true }),
      );
      // Before 80 % of its life: no renewal.
      vi.setSystemTime(Date.now() + 7_000);
      await api.post('/api/x/save', { name: 'A' });
      expect(adapter.calls.map((c) => c.url)).toEqual(['/api/x/save']);

      // After it: one renewal shared by the calls made together, then the calls with the new token.
      vi.setSystemTime(Date.now() + 2_000);
      await Promise.all([api.post('/api/x/save', { name: 'B' }), api.get('/api/x/page')]);
      const urls = adapter.calls.slice(1).map((c) => c.url);
      expect(urls.filter((u) => u === endpoints.token)).toHaveLength(1);
      expect(urls[0]).toBe(endpoints.token);
      expect(paramsOf(adapter.calls[1])).toMatchObject({ grant_type: 'refresh_token' });
      for (const call of adapter.calls.slice(2))
        expect(call.headers.get('Authorization')).toBe('Bearer access-1');
      expect(reload).not.toHaveBeenCalled();
      expect(toast).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a background poll neither renews ahead nor meets a 424 with a refresh, a reload or a toast', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      setTokens('access-0', 'refresh-0', undefined, 10);
      const adapter = serve((config) =>
        config.url === endpoints.token
          ? { status: 200, data: pair(1) }
          : { status: 424, data: { code: 424, msg: messages.tokenExpired, data: null } },
      );
      vi.setSystemTime(Date.now() + 9_000);
      await expect(api.get('/api/x/alerts', undefined, { background: true })).rejects.toMatchObject({
        code: 424,
      });
      await flush();
      expect(adapter.calls.map((c) => c.url)).toEqual(['/api/x/alerts']);
      expect(reload).not.toHaveBeenCalled();
      expect(navigate).not.toHaveBeenCalled();
      expect(toast).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a known lifetime nothing is renewed ahead (the 424 path stays)', async () => {
    setTokens('access-0', 'refresh-0');
    const adapter = serve(() => ok(null));
    await api.get('/api/x/page');
    expect(adapter.calls.map((c) => c.url)).toEqual(['/api/x/page']);
  });
});
