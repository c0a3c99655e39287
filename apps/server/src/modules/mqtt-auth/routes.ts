/**
 * The device credentials and topic rules for an external broker cluster, in the shape EMQX's HTTP
 * authenticator and HTTP authorizer call (docs/deploy.md shows their settings):
 * - `POST /api/hardware/mqtt/authenticate` `{clientid, username, password}` →
 *   `{result: allow | deny, is_superuser}`: a device with its secret, an unregistered sn with the
 *   enrolment key, or the console itself with the username and password of its MQTT_URL (superuser).
 *   The console's username is a credential of its own: with any other password it is denied, never
 *   tried as a device (no sn may equal it: devices/console-identity.ts), so the enrolment key cannot
 *   log in under it;
 * - `POST /api/hardware/mqtt/authorize` `{clientid, username, topic, action}` → `{result}`: a device
 *   publishes only on its own evt/status topics and subscribes only to its own cmd topic.
 * The same rules as the embedded broker (devices/rules.ts). The broker proves itself with
 * `Authorization: Bearer MQTT_AUTH_TOKEN`; without MQTT_AUTH_TOKEN set the endpoints do not exist
 * (404), so they are never an open oracle for device secrets.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/http.ts';
import { equalText, publishRefusal, roleOf, subscribeAllowed } from '../../device-link/rules.ts';
import { consoleLogin, isConsoleName } from '../../device-link/console-identity.ts';

export const mqttAuthPaths = {
  authenticate: '/api/hardware/mqtt/authenticate',
  authorize: '/api/hardware/mqtt/authorize',
} as const;

const text = z.string().max(1024).optional();
const verdict = z.object({ result: z.enum(['allow', 'deny']), is_superuser: z.boolean().optional() });

const mqttAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  const token = app.config.mqttAuthToken;
  if (!token) return;
  const link = app.devices;
  const server = consoleLogin(app.config.mqttUrl);
  /** The console's own client: the username and password of MQTT_URL, the password in constant time. */
  const isServer = (username?: string, password?: string) =>
    Boolean(
      server?.password &&
      username === server.username &&
      password !== undefined &&
      equalText(password, server.password),
    );
  const isConsole = (name?: string) => isConsoleName(app.config, name);

  app.addHook('onRequest', async (request) => {
    const given = request.headers.authorization ?? '';
    if (!equalText(given, `Bearer ${token}`)) throw new AppError(401, '未授权的 MQTT 认证请求');
  });

  app.post(
    mqttAuthPaths.authenticate,
    {
      config: { public: true },
      schema: {
        tags: ['mqtt-auth'],
        summary: "EMQX HTTP authenticator: a device's, an enrolling device's or the console's credentials",
        body: z.object({ clientid: text, username: text, password: text }),
        response: { 200: verdict },
      },
    },
    async (request) => {
      const { clientid = '', username, password } = request.body;
      if (isServer(username, password)) return { result: 'allow' as const, is_superuser: true };
      // The console's name with another password is nobody: not a device, not an enrolling one.
      if (isConsole(username) || isConsole(clientid)) return { result: 'deny' as const, is_superuser: false };
      const role = await roleOf(
        { clientId: clientid, username, password },
        link.credentials,
        app.config.deviceEnrolKey,
      );
      return { result: role ? ('allow' as const) : ('deny' as const), is_superuser: false };
    },
  );

  app.post(
    mqttAuthPaths.authorize,
    {
      config: { public: true },
      schema: {
        tags: ['mqtt-auth'],
        summary: 'EMQX HTTP authorizer: a device uses only its own topics',
        body: z.object({ clientid: text, username: text, topic: text, action: text }),
        response: { 200: verdict },
      },
    },
    async (request) => {
      const { clientid = '', username, topic = '', action } = request.body;
      // Only the console authenticates under its username (its password, above) and no sn equals it;
      // EMQX skips a superuser anyway. A device-shaped login under it (client id = username, as the
      // issue's attack: `cowork`/`cowork`) is never the console, whose client id is its own.
      if (isConsole(username) && clientid !== username) return { result: 'allow' as const };
      if (isConsole(username) || isConsole(clientid)) return { result: 'deny' as const };
      if (username !== clientid) return { result: 'deny' as const };
      const known = await link.credentials(clientid);
      const role = known.registered ? 'device' : 'enrol';
      const allowed =
        action === 'publish'
          ? publishRefusal(role, clientid, topic) === undefined
          : action === 'subscribe'
            ? subscribeAllowed(clientid, topic)
            : false;
      return { result: allowed ? ('allow' as const) : ('deny' as const) };
    },
  );
};

export default mqttAuthRoutes;
