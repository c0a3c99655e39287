import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import Cookies from 'js-cookie';
import { COOKIE_EXPIRES_DAYS, USER_INFO_KEY } from '@cowork/contract';
import { visit } from '../test/mock-adapter.ts';
import { events } from './events.ts';
import { loginAddress, resetNavigation, safeReturnPath, setNavigation } from './navigation.ts';
import { queryClient, queryKeys } from './query-client.ts';
import { requireSession } from './route-guard.ts';
import {
  clearSession,
  getAccessToken,
  getRefreshToken,
  installLogoutListener,
  logout,
  mergeUserInfo,
  readUserInfo,
  setTokens,
} from './session.ts';
import { getShellState, setShellState } from './shell-state.ts';

const navigate = vi.fn();

beforeEach(() => {
  navigate.mockReset();
  setNavigation({ navigate });
});
afterEach(resetNavigation);

function signedIn() {
  setTokens('access', 'refresh');
  localStorage.setItem(USER_INFO_KEY, JSON.stringify({ nickname: '系统管理员', ssoUserId: 1 }));
  setShellState({ menuOpen: true, titleOpen: true });
  queryClient.setQueryData(queryKeys.menu, [{ id: 1, name: '系统配置' }]);
}

describe('tokens and user info', () => {
  it('stores both tokens as cookies that expire after a day by default', () => {
    const set = vi.spyOn(Cookies, 'set');
    setTokens('a1', 'r1');
    expect(getAccessToken()).toBe('a1');
    expect(getRefreshToken()).toBe('r1');
    expect(set).toHaveBeenCalledWith(
      'access_token',
      'a1',
      expect.objectContaining({ expires: COOKIE_EXPIRES_DAYS }),
    );
    expect(set).toHaveBeenCalledWith('refresh_token', 'r1', expect.objectContaining({ expires: 1 }));
    // Served over http (the test page): not Secure, or the browser would drop them.
    expect(set).toHaveBeenCalledWith('access_token', 'a1', expect.objectContaining({ secure: false }));
    set.mockRestore();
  });

  it('marks both cookies Secure when the console is served over https', () => {
    const set = vi.spyOn(Cookies, 'set');
    const location = vi.spyOn(window, 'location', 'get');
    location.mockReturnValue({ ...window.location, protocol: 'https:' } as Location);
    try {
      setTokens('a2', 'r2');
      for (const name of ['access_token', 'refresh_token'])
        expect(set).toHaveBeenCalledWith(name, expect.any(String), expect.objectContaining({ secure: true }));
    } finally {
      location.mockRestore();
      set.mockRestore();
    }
  });

  it('merges fresh user info into the cached copy and stores it back', () => {
    localStorage.setItem(USER_INFO_KEY, JSON.stringify({ nickname: '旧', avatar: 'a.png' }));
    expect(mergeUserInfo({ nickname: '新', email: 'x@y.cn' })).toEqual({
      nickname: '新',
      avatar: 'a.png',
      email: 'x@y.cn',
    });
    expect(JSON.parse(localStorage.getItem(USER_INFO_KEY)!)).toEqual({
      nickname: '新',
      avatar: 'a.png',
      email: 'x@y.cn',
    });
  });

  it('reads a missing or broken cached copy as empty', () => {
    expect(readUserInfo()).toEqual({});
    localStorage.setItem(USER_INFO_KEY, '{not json');
    expect(readUserInfo()).toEqual({});
    localStorage.setItem(USER_INFO_KEY, '[1]');
    expect(readUserInfo()).toEqual({});
  });

  it('clearSession removes both cookies and user_info', () => {
    signedIn();
    clearSession();
    expect(getAccessToken()).toBeUndefined();
    expect(getRefreshToken()).toBeUndefined();
    expect(localStorage.getItem(USER_INFO_KEY)).toBeNull();
  });
});

describe('logout', () => {
  it('clears the session, closes menu and title, and goes to login with the address', () => {
    signedIn();
    visit('/system/log?current=1&resource=sso-user');
    logout();
    expect(getAccessToken()).toBeUndefined();
    expect(getRefreshToken()).toBeUndefined();
    expect(localStorage.getItem(USER_INFO_KEY)).toBeNull();
    expect(getShellState()).toMatchObject({ menuOpen: false, titleOpen: false });
    expect(queryClient.getQueryData(queryKeys.menu)).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith(
      `/login?url=${encodeURIComponent('/system/log?current=1&resource=sso-user')}`,
    );
  });

  it('adds no url when already on login', () => {
    visit('/login?url=%2Fpersonal');
    logout();
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('is triggered by the global logout event', () => {
    installLogoutListener();
    signedIn();
    visit('/personal');
    events.emit('logout');
    expect(getAccessToken()).toBeUndefined();
    expect(navigate).toHaveBeenCalledWith('/login?url=%2Fpersonal');
  });
});

describe('route change without a token', () => {
  it('logs out and redirects to login with the requested address', () => {
    localStorage.setItem(USER_INFO_KEY, '{"nickname":"x"}');
    Cookies.set('refresh_token', 'r');
    let thrown: unknown;
    try {
      requireSession({ request: new Request('http://localhost/system/log?current=1') });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(302);
    expect((thrown as Response).headers.get('Location')).toBe('/login?url=%2Fsystem%2Flog%3Fcurrent%3D1');
    expect(getRefreshToken()).toBeUndefined();
    expect(localStorage.getItem(USER_INFO_KEY)).toBeNull();
  });

  it('lets the route load with a token', () => {
    setTokens('a', 'r');
    expect(requireSession({ request: new Request('http://localhost/') })).toBeNull();
  });
});

describe('addresses', () => {
  it('builds the login address', () => {
    expect(loginAddress('/')).toBe('/login?url=%2F');
    expect(loginAddress('/login')).toBe('/login');
    expect(loginAddress('/login?url=%2Fa')).toBe('/login');
  });

  it('returns after sign-in only to paths on this site', () => {
    expect(safeReturnPath('/system/log?current=1')).toBe('/system/log?current=1');
    expect(safeReturnPath(null)).toBe('/');
    expect(safeReturnPath('https://evil.example/')).toBe('/');
    expect(safeReturnPath('//evil.example/x')).toBe('/');
    expect(safeReturnPath('/\\evil.example')).toBe('/');
    expect(safeReturnPath('javascript:alert(1)')).toBe('/');
    expect(safeReturnPath('/login?url=%2F')).toBe('/');
  });
});

describe('cookies set under a deeper path', () => {
  it('are removed too', () => {
    visit('/system/log');
    document.cookie = 'access_token=stale; path=/system';
    setTokens('access', 'refresh');
    clearSession();
    expect(document.cookie).not.toContain('access_token');
    expect(document.cookie).not.toContain('refresh_token');
  });
});
