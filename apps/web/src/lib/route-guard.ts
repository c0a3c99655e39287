/**
 * The two route checks: a screen needs the access token, and a menu screen is
 * only shown to users whose menu tree names it.
 */
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { messages, unguardedRouteNames, type ConsoleRoute, type MenuItem } from '@cowork/contract';
import { loginAddress, rememberSignOutReason } from './navigation.ts';
import { endSession, getAccessToken, readUserInfo } from './session.ts';

/** What every route carries as its `handle`. */
export type RouteMeta = Pick<ConsoleRoute, 'name' | 'pageTitle' | 'openNames' | 'sort'>;

/**
 * Whether a route may be shown to the owner of `menu`: routes named index, personal, login or 404
 * always; any other only if its pageTitle is a top-level or second-level menu name.
 */
export function isRouteAllowed(meta: Pick<RouteMeta, 'name' | 'pageTitle'>, menu: MenuItem[]): boolean {
  if (unguardedRouteNames.includes(meta.name)) return true;
  return menu.some(
    (top) => top.name === meta.pageTitle || top.children.some((child) => child.name === meta.pageTitle),
  );
}

/**
 * Loader of every named route but login: without an access token the session ends and the user
 * goes to /login, with the address they asked for as `url`.
 */
export function requireSession({ request }: Pick<LoaderFunctionArgs, 'request'>): null {
  if (getAccessToken()) return null;
  const url = new URL(request.url);
  // Someone was signed in here and their token cookie ran out: the login page says so.
  if (readUserInfo().username) rememberSignOutReason(messages.sessionExpired);
  endSession();
  throw redirect(loginAddress(url.pathname + url.search));
}
