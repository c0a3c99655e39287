/**
 * What the auth plugin does for a call made with an API key (接口密钥) once the key is admitted:
 * - the endpoints a key never reaches, whatever its role grants (contract `apiKeyForbiddenPrefixes`),
 *   and those a key limited to buildings never reaches because their records span buildings
 *   (`apiKeyCrossBuildingPrefixes`: invoices, dashboard totals, device sets, firmware…);
 * - its rate: calls per key and minute, counted in the database (lib/rate-limit-store.ts's
 *   `countHit`) so every instance shares one limit; past it, 429;
 * - its last use (time and address), written at most once a minute per key, not once per call: this
 *   instance skips keys it wrote within the minute, and the statement itself skips a key another
 *   instance wrote within it.
 */
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  API_KEY_USAGE_WRITE_MS,
  apiKeyCrossBuildingPrefixes,
  apiKeyForbiddenPrefixes,
  apiKeyMessages,
} from '@cowork/contract/resources/api-key';
import { apiKeys } from '../db/schema.ts';
import { keyBuildingsOf } from '../lib/building-scope.ts';
import { AppError } from '../lib/http.ts';
import { countHit } from '../lib/rate-limit-store.ts';

const RATE_WINDOW_MS = 60_000;

const under = (url: string, prefixes: readonly string[]) => prefixes.some((prefix) => url.startsWith(prefix));

/**
 * 403 when the key calling may not reach the route at this path (the route's pattern, e.g.
 * `/api/…/detail/:id`), whatever its role grants; nothing for staff.
 */
export function refuseOutOfKeyReach(request: FastifyRequest, url: string) {
  if (!request.user?.apiKey) return;
  if (under(url, apiKeyForbiddenPrefixes)) throw new AppError(403, apiKeyMessages.forbiddenEndpoint);
  if (keyBuildingsOf(request) && under(url, apiKeyCrossBuildingPrefixes))
    throw new AppError(403, apiKeyMessages.crossBuilding);
}

export function createApiKeyCalls(app: FastifyInstance) {
  /** When this instance last wrote each key's last use. */
  const written = new Map<number, number>();

  function recordUse(keyId: number, ip: string) {
    const now = Date.now();
    if (now - (written.get(keyId) ?? 0) < API_KEY_USAGE_WRITE_MS) return;
    written.set(keyId, now);
    const since = new Date(now - API_KEY_USAGE_WRITE_MS);
    // Off the request's path: the call does not wait for it, and a failure only delays the record.
    app.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(now), lastUsedIp: ip })
      .where(and(eq(apiKeys.id, keyId), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))))
      .catch((error: unknown) => {
        written.delete(keyId);
        app.log.warn({ err: error, apiKeyId: keyId }, 'api key: last use not recorded');
      });
  }

  return {
    /** Counts an admitted key's call against its rate (429 past it) and notes its use; nothing for staff. */
    async counted(request: FastifyRequest) {
      const key = request.user?.apiKey;
      if (!key) return;
      const max = app.config.apiKeyRateLimitPerMinute;
      const { current } = await countHit(app.db, `api-key:${key.id}`, RATE_WINDOW_MS);
      if (current > max) throw new AppError(429, apiKeyMessages.rateLimited(max));
      recordUse(key.id, request.ip);
    },
  };
}
