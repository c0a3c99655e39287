/**
 * The signed-in session: the two token cookies, the cached user info and logout.
 */
import Cookies from 'js-cookie';
import {
  ACCESS_TOKEN_COOKIE,
  ACCESS_TOKEN_RENEW_AT_KEY,
  ACCESS_TOKEN_RENEW_SHARE,
  COOKIE_EXPIRES_DAYS,
  REFRESH_TOKEN_COOKIE,
  USER_INFO_KEY,
  type UserInfo,
} from '@cowork/contract';
import { events } from './events.ts';
import { loginAddress, navigateTo } from './navigation.ts';
import { setShellState } from './shell-state.ts';

export const getAccessToken = (): string | undefined => Cookies.get(ACCESS_TOKEN_COOKIE);
export const getRefreshToken = (): string | undefined => Cookies.get(REFRESH_TOKEN_COOKIE);

/**
 * Stores a new token pair. `expiresIn` (seconds, from the token answer) sets when the console will
 * renew the access token ahead of its expiry (lib/request.ts renews before the next call after it).
 */
export function setTokens(
  accessToken: string,
  refreshToken: string,
  expires = COOKIE_EXPIRES_DAYS,
  expiresIn?: number,
): void {
  if (expiresIn && expiresIn > 0) {
    const renewAt = Date.now() + expiresIn * 1000 * ACCESS_TOKEN_RENEW_SHARE;
    localStorage.setItem(ACCESS_TOKEN_RENEW_AT_KEY, String(Math.round(renewAt)));
  } else localStorage.removeItem(ACCESS_TOKEN_RENEW_AT_KEY);
  // Secure over https, so the tokens never travel on a plain-http request to the same host.
  const secure = window.location.protocol === 'https:';
  const options = { expires, path: '/', sameSite: 'lax' as const, secure };
  Cookies.set(ACCESS_TOKEN_COOKIE, accessToken, options);
  Cookies.set(REFRESH_TOKEN_COOKIE, refreshToken, options);
}

/** The cached user info, or an empty object when there is none or it is unreadable. */
export function readUserInfo(): Partial<UserInfo> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(USER_INFO_KEY) ?? 'null');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Partial<UserInfo>)
      : {};
  } catch {
    return {};
  }
}

/** Merges fresh user info into the cached copy, stores the result and returns it. */
export function mergeUserInfo(fresh: Partial<UserInfo> | null | undefined): Partial<UserInfo> {
  const merged = { ...readUserInfo(), ...(fresh ?? {}) };
  localStorage.setItem(USER_INFO_KEY, JSON.stringify(merged));
  return merged;
}

/**
 * The paths a cookie visible here may have been set with: `/` and every prefix of the current
 * path. The console sets its cookies on `/`, but a cookie set elsewhere (by an older build, a
 * proxy, a test) under a deeper path would otherwise survive logout and keep being sent.
 */
function cookiePaths(): string[] {
  const paths = ['/'];
  let prefix = '';
  for (const segment of window.location.pathname.split('/').filter(Boolean)) {
    prefix += `/${segment}`;
    paths.push(prefix, `${prefix}/`);
  }
  return paths;
}

/** Whether the access token is due for renewal (its renewal time, if the console knows it, passed). */
export function accessTokenDue(now = Date.now()): boolean {
  const renewAt = Number(localStorage.getItem(ACCESS_TOKEN_RENEW_AT_KEY));
  return renewAt > 0 && now >= renewAt;
}

/** Removes both token cookies and the cached user info. */
export function clearSession(): void {
  for (const path of cookiePaths()) {
    Cookies.remove(ACCESS_TOKEN_COOKIE, { path });
    Cookies.remove(REFRESH_TOKEN_COOKIE, { path });
  }
  localStorage.removeItem(USER_INFO_KEY);
  localStorage.removeItem(ACCESS_TOKEN_RENEW_AT_KEY);
}

const sessionEndListeners = new Set<() => void>();

/**
 * Lets a store of per-session data forget it when the session ends. The query cache registers
 * here when it loads (lib/query-client.ts), so the login route need not load it.
 */
export function onSessionEnd(listener: () => void): void {
  sessionEndListeners.add(listener);
}

/** Clears the session and everything shown for it: the menu, the title and the cached queries. */
export function endSession(): void {
  clearSession();
  setShellState({ menuOpen: false, titleOpen: false, passwordOpen: false });
  sessionEndListeners.forEach((listener) => listener());
}

/**
 * Logs out locally: ends the session and goes to /login with the current address as `url`
 * (unless already on login). The server-side logout call is the header's job.
 */
export function logout(): void {
  endSession();
  navigateTo(loginAddress());
}

let installed = false;
/** Lets any code end the session by emitting the global `logout` event. */
export function installLogoutListener(): void {
  if (installed) return;
  installed = true;
  events.on('logout', logout);
}
