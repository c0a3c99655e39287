/**
 * Leaving the current page, behind two replaceable functions so code outside React (the axios
 * interceptors, the session) can navigate, and unit tests can observe it. main.tsx swaps the
 * default full-page navigation for the router's client-side one.
 */
type Navigate = (to: string) => void;

const defaults = {
  navigate: ((to) => window.location.assign(to)) as Navigate,
  reload: () => window.location.reload(),
};
let current = { ...defaults };

export function setNavigation(overrides: Partial<typeof defaults>): void {
  current = { ...current, ...overrides };
}

export function resetNavigation(): void {
  current = { ...defaults };
}

export function navigateTo(to: string): void {
  current.navigate(to);
}

export function reloadPage(): void {
  current.reload();
}

/** Path and query of the page shown now, e.g. `/system/log?current=2`. */
export function currentAddress(): string {
  return window.location.pathname + window.location.search;
}

export const LOGIN_PATH = '/login';

export function isLoginPath(pathname: string): boolean {
  return pathname === LOGIN_PATH || pathname.startsWith(`${LOGIN_PATH}/`);
}

/** Where a signed-out user is sent: /login, remembering the address unless it is a login page. */
export function loginAddress(address: string = currentAddress()): string {
  const pathname = address.split(/[?#]/)[0];
  return isLoginPath(pathname) ? LOGIN_PATH : `${LOGIN_PATH}?url=${encodeURIComponent(address)}`;
}

const SIGN_OUT_REASON = 'sign_out_reason';

/** Why the console is sending the user to sign in again, for the login page to say once. */
export function rememberSignOutReason(text: string): void {
  try {
    sessionStorage.setItem(SIGN_OUT_REASON, text);
  } catch {
    // Storage refused (private mode): the redirect still happens, without the sentence.
  }
}

/** The reason remembered for this tab, if any; reading it forgets it, so it is said once. */
export function takeSignOutReason(): string | null {
  try {
    const text = sessionStorage.getItem(SIGN_OUT_REASON);
    sessionStorage.removeItem(SIGN_OUT_REASON);
    return text;
  } catch {
    return null;
  }
}

/** The `url` to return to after sign-in, only if it is a path on this site; otherwise home. */
export function safeReturnPath(url: string | null | undefined): string {
  if (!url || !url.startsWith('/') || url.startsWith('//') || url.startsWith('/\\')) return '/';
  try {
    const target = new URL(url, window.location.origin);
    if (target.origin !== window.location.origin || isLoginPath(target.pathname)) return '/';
    return target.pathname + target.search + target.hash;
  } catch {
    return '/';
  }
}
