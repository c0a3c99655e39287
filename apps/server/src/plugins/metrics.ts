/**
 * Serves the metrics (lib/metrics.ts) in Prometheus's text format, never to the public:
 * - `GET /metrics` on the main port asks for `Authorization: Bearer METRICS_TOKEN` (401 otherwise),
 *   and answers 404 when METRICS_TOKEN is unset;
 * - METRICS_PORT opens a small listener of its own on METRICS_HOST (127.0.0.1 by default) that
 *   serves `/metrics` there, asking for the token too when one is set.
 * It also times every answer by its route pattern and status class.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { equalText } from '../device-link/rules.ts';
import { AppError } from '../lib/http.ts';
import type { Metrics } from '../lib/metrics.ts';

export const METRICS_PATH = '/metrics';

const UNAUTHORIZED = '未授权的指标请求：请在 Authorization 请求头中携带 Bearer METRICS_TOKEN';

/** Whether the request may read the metrics: any, without a token; with one, only its bearer. */
const allowed = (token: string | undefined, request: Pick<IncomingMessage, 'headers'>) =>
  token === undefined || equalText(request.headers.authorization ?? '', `Bearer ${token}`);

/** The listener of METRICS_PORT: `/metrics` and nothing else, answered as plain text. */
function metricsListener(metrics: Metrics, token: string | undefined): Server {
  return createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const answer = (status: number, text: string, type = 'text/plain; charset=utf-8') =>
      response.writeHead(status, { 'content-type': type }).end(text);
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD'))
      return answer(404, 'Not found: the metrics are at /metrics\n');
    if (!allowed(token, request)) {
      response.setHeader('www-authenticate', 'Bearer');
      return answer(401, `${UNAUTHORIZED}\n`);
    }
    metrics.registry.metrics().then(
      (text) => answer(200, text, metrics.registry.contentType),
      () => answer(500, 'Metrics could not be collected\n'),
    );
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's metrics; `address()` is METRICS_PORT's listener once it listens (tests read its port). */
    metrics: Metrics & { address(): AddressInfo | undefined };
  }
}

export function registerMetrics(app: FastifyInstance, metrics: Metrics) {
  const { token, port, host } = app.config.metrics;
  let listener: Server | undefined;
  app.decorate('metrics', {
    ...metrics,
    address: () => {
      const address = listener?.address();
      return address && typeof address === 'object' ? address : undefined;
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    metrics.http(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get(
    METRICS_PATH,
    // Public to the auth plugin: the token below is this route's own credential.
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      if (token === undefined) return reply.callNotFound();
      if (!allowed(token, request.raw)) {
        void reply.header('www-authenticate', 'Bearer');
        throw new AppError(401, UNAUTHORIZED);
      }
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    },
  );

  if (port !== undefined) {
    app.addHook('onReady', async () => {
      const server = metricsListener(metrics, token);
      await new Promise<void>((resolve, reject) => {
        server.once('error', (error) =>
          reject(new Error(`METRICS_PORT ${port} on ${host} cannot listen: ${error.message}`)),
        );
        server.listen(port, host, () => resolve());
      });
      listener = server;
      const bound = server.address();
      const shown = bound && typeof bound === 'object' ? bound.port : port;
      app.log.info(`metrics served on http://${host}:${shown}${METRICS_PATH} (METRICS_PORT)`);
    });
  }
  app.addHook('onClose', async () => {
    metrics.close();
    const server = listener;
    listener = undefined;
    if (!server) return;
    await new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  });
}
