/**
 * Route access. Every route declares `config.public`, `config.auth` (any signed-in user) or
 * `config.permission` (a permission code, or a list of codes any one of which opens it); a route
 * without one fails at registration. One onRequest hook checks the bearer token and the permission
 * before anything else runs, so an unauthorised caller learns nothing from validation.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { grants, messages } from '@cowork/contract';
import { API_KEY_PREFIX, apiKeyMessages } from '@cowork/contract/resources/api-key';
import { limitToKeyBuildings } from '../lib/building-scope.ts';
import { AppError, forbidden, unauthorized } from '../lib/http.ts';
import type { AuthUser, Session } from '../lib/sessions.ts';
import { errorOf } from '../lib/unknown.ts';
import { createApiKeyCalls, refuseOutOfKeyReach } from './api-key-calls.ts';
import { createSessionCache, type SessionCache } from './session-cache.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Anyone may call it. */
    public?: boolean;
    /** Any signed-in user may call it. */
    auth?: boolean;
    /** Only users whose roles grant this code, or any one of these codes (or `*`). */
    permission?: string | readonly string[];
  }
  interface FastifyRequest {
    /** The signed-in caller; null on public routes. */
    user: AuthUser | null;
    /** Token family of the caller's session (logout revokes it). */
    sessionFamilyId: string | null;
  }
  interface FastifyInstance {
    /** Every declared route and who may call it (permission walk, sso-resources). */
    routeCatalogue: RouteEntry[];
    /** Sessions by access token, kept until a write or a notification says they may have changed. */
    sessions: SessionCache;
  }
}

export interface RouteEntry {
  method: string;
  url: string;
  access: 'public' | 'auth' | 'permission';
  /** The code it needs; the first one when it declares several. */
  permission: string | null;
  /** Every code that opens it (any one is enough); empty on public and auth routes. */
  permissions: string[];
}

/** Methods that change nothing: only other requests empty the session cache. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes added by plugins we do not write (the API docs UI) are public. */
const EXEMPT_PREFIXES = ['/api/docs'];

/** Whether the user holds the code, or any one of the codes. */
export const hasPermission = (user: Pick<AuthUser, 'permissions'>, code: string | readonly string[]) =>
  grants(user.permissions, code);

/** The codes a route declares, as a list. */
const codesOf = (permission: string | readonly string[] | undefined): string[] =>
  permission === undefined ? [] : typeof permission === 'string' ? [permission] : [...permission];

/** The token of `Authorization: Bearer …`, or undefined when missing or empty. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The token of the console's `access_token` cookie: a link the browser opens itself (a private file)
 * carries no Authorization header, but the cookie the console keeps its token in goes with it.
 */
export function cookieToken(request: FastifyRequest): string | undefined {
  const match = /(?:^|;\s*)access_token=([^;\s]+)/.exec(request.headers.cookie ?? '');
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * An API key's session, or the 401 that says why the key does not work. Never 424: a key has no
 * refresh token, so an expired one is simply refused.
 */
function keySignedIn(session: Session | undefined) {
  const key = session?.user.apiKey;
  if (!session || !key) throw unauthorized(apiKeyMessages.invalid);
  if (session.revokedAt) throw unauthorized(apiKeyMessages.revokedInUse);
  if (session.expiresAt.getTime() <= Date.now()) throw unauthorized(apiKeyMessages.expired);
  if (key.unusable) throw unauthorized(apiKeyMessages[key.unusable === 'role' ? 'roleGone' : 'ownerGone']);
  return session;
}

/** The session of an access token, or the 401/424 that says why it does not sign anyone in. */
function signedIn(session: Session | undefined) {
  if (session?.user.apiKey) return keySignedIn(session);
  if (!session || session.kind !== 'access' || session.revokedAt) throw unauthorized();
  if (session.user.status !== 'enabled') throw unauthorized(messages.accountDisabled);
  if (session.expiresAt.getTime() <= Date.now()) throw new AppError(424, messages.tokenExpired);
  return session;
}

/** The signed-in staff member of an access token, or the 401/424 that says why there is none. */
export async function userOfToken(app: FastifyInstance, token: string | undefined) {
  if (!token) throw unauthorized();
  return signedIn(await app.sessions.find(token));
}

export function registerAuth(app: FastifyInstance) {
  const sessions = createSessionCache(app.db, app.log);
  app.decorate('sessions', sessions);
  app.addHook('onReady', () => sessions.start());
  app.addHook('onClose', () => sessions.stop());
  // A write may have ended sessions or changed rights: this instance forgets what it cached before
  // answering (other instances hear of it through the database's notification).
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!SAFE_METHODS.has(request.method)) sessions.clear();
    done(null, payload);
  });
  const catalogue: RouteEntry[] = [];
  app.decorate('routeCatalogue', catalogue);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionFamilyId', null);
  const keyCalls = createApiKeyCalls(app);
  // A key limited to some buildings names only those in what it sends (before validation reads it).
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      limitToKeyBuildings(request);
    } catch (error) {
      return done(errorOf(error));
    }
    done();
  });

  app.addHook('onRoute', (route) => {
    const config = (route.config ??= {});
    if (EXEMPT_PREFIXES.some((p) => route.url.startsWith(p))) {
      config.public = true;
      return;
    }
    const codes = codesOf(config.permission);
    if (config.permission !== undefined && (codes.length === 0 || codes.some((c) => typeof c !== 'string'))) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} declares an empty or invalid config.permission`,
      );
    }
    const declared = [config.public === true, config.auth === true, codes.length > 0];
    if (declared.filter(Boolean).length !== 1) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} must declare exactly one of config.public, config.auth or config.permission`,
      );
    }
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    for (const method of methods) {
      catalogue.push({
        method,
        url: route.url,
        access: config.public ? 'public' : config.auth ? 'auth' : 'permission',
        permission: codes[0] ?? null,
        permissions: codes,
      });
    }
  });

  const admit = (request: FastifyRequest, session: Session | undefined, token: string) => {
    // An unknown `ck_…` is a wrong key, not an ended sign-in: say so.
    const { user, familyId } = token.startsWith(API_KEY_PREFIX) ? keySignedIn(session) : signedIn(session);
    request.user = user;
    request.sessionFamilyId = familyId;
    // Whatever its role grants (even `*`), a key never reaches the screens that hand out rights, nor,
    // limited to buildings, the routes spanning buildings.
    refuseOutOfKeyReach(request, request.routeOptions.url ?? request.url);
    const { permission } = request.routeOptions.config;
    if (permission && !hasPermission(user, permission)) throw forbidden();
  };
  // Callback style, answered at once when the session is cached (most requests): an async hook
  // costs a promise and a turn of the event loop on every request.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.is404 || request.routeOptions.config.public) return done();
    const token = bearerToken(request);
    if (token === undefined) return done(unauthorized());
    const hit = sessions.cached(token);
    if (!hit) {
      sessions
        .find(token)
        .then((session) => admit(request, session, token))
        .then(() => keyCalls.counted(request))
        .then(() => done(), done);
      return;
    }
    try {
      admit(request, hit, token);
    } catch (error) {
      return done(errorOf(error));
    }
    // A key's call is counted against its rate (a database round trip); a staff member's is not.
    if (hit.user.apiKey) return void keyCalls.counted(request).then(() => done(), done);
    done();
  });
}

/** The signed-in caller on an `auth` or `permission` route. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
