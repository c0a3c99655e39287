/** Liveness and readiness probes, open to anyone (load balancers, orchestrators). */
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpoints } from '@cowork/contract';
import { databaseOutage } from '../../db/client.ts';
import { envelope, errorEnvelope, failure, ok } from '../../lib/http.ts';
import { runningVersion } from '../../lib/version.ts';
import { outageMessages } from '../../plugins/errors.ts';

const status = z.object({ status: z.string() });
/**
 * The process is up, and which version it runs (`version` of apps/server/package.json, and `commit`,
 * the git commit it was built from when the build recorded it); `mqtt` says whether the device link
 * is (a taken MQTT_PORT leaves it down).
 * With MQTT_URL, `mqttBroker` is what the start-up check found: `unauthenticated` when clients
 * without a device's credentials got in, and what they could do (devices/broker-check.ts).
 */
const health = status.extend({
  version: z.string(),
  commit: z.string().optional(),
  mqtt: z.enum(['up', 'down']),
  mqttReason: z.string().optional(),
  mqttBroker: z
    .object({ checked: z.boolean(), unauthenticated: z.boolean(), findings: z.array(z.string()) })
    .optional(),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    endpoints.health,
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'The process is up, the version it runs, and whether the device link (MQTT) is',
        security: [],
        response: { 200: envelope(health) },
      },
    },
    async () => {
      const link = app.devices.status();
      const broker = app.devices.brokerCheck();
      return ok({
        status: 'up',
        ...runningVersion,
        mqtt: link.up ? 'up' : 'down',
        ...(link.up ? {} : { mqttReason: link.reason }),
        ...(broker ? { mqttBroker: broker } : {}),
      });
    },
  );

  app.get(
    endpoints.ready,
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'The database answers (503 within about 2 s when it does not)',
        security: [],
        response: { 200: envelope(status), 503: errorEnvelope },
      },
    },
    async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
      } catch (err) {
        request.log.error({ err }, 'readiness check failed');
        // The database is all this checks: whatever failed, it is not usable now.
        return reply.code(503).send(failure(503, outageMessages[databaseOutage(err) ?? 'unreachable']));
      }
      return ok({ status: 'ready' });
    },
  );
};

export default healthRoutes;
