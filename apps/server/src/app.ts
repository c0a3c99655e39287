/**
 * Builds the Fastify app (no listen): compilers, error handling, auth, docs, then one module per
 * resource, then the web build. main.ts and the tests call it with their own config and database.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import type { ServerOptions } from 'node:http';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyServerOptions } from 'fastify';
import {
  validatorCompiler,
  type FastifyPluginAsyncZod,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { messages, setBusinessTimeZone } from '@cowork/contract';
import { fastifyTrustProxy, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createDeviceLink, type DeviceLink } from './device-link/link.ts';
import { AppError } from './lib/http.ts';
import { ownFileExtension } from './lib/module-files.ts';
import { createMetrics } from './lib/metrics.ts';
import { databaseRateLimitStore } from './lib/rate-limit-store.ts';
import { createSerializerCompiler } from './lib/serializer.ts';
import { registerAuth } from './plugins/auth.ts';
import { frameworkErrors, registerErrorHandling } from './plugins/errors.ts';
import { registerIdempotency } from './plugins/idempotency.ts';
import { loggerOptions, registerRequestIds, requestIds } from './plugins/logging.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerSwagger } from './plugins/swagger.ts';
import { registerWeb } from './plugins/web.ts';
import { isFunction, propertyOf } from './lib/unknown.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
    /** The link to door devices (device-link/link.ts), started when the app is ready. */
    devices: DeviceLink;
  }
}

export interface BuildOptions {
  config: Config;
  db: Database;
  /** Fastify logger options; false silences it (tests). */
  logger?: FastifyServerOptions['logger'];
  /** Also check every answer against its zod schema (default: under NODE_ENV=test, the test suite). */
  checkResponses?: boolean;
}

/**
 * Every folder under modules/ with a routes.ts is one module (its default export is the Fastify
 * plugin), found at start: adding a resource never means editing a central list.
 */
const modulesDir = new URL('./modules/', import.meta.url);

async function loadModules(): Promise<FastifyPluginAsyncZod[]> {
  const folders = (await readdir(modulesDir, { withFileTypes: true })).filter((d) => d.isDirectory());
  const found: FastifyPluginAsyncZod[] = [];
  for (const folder of folders.map((d) => d.name).sort()) {
    const file = new URL(`${folder}/routes.${ownFileExtension}`, modulesDir);
    if (!existsSync(file)) continue;
    const plugin = propertyOf(await import(file.href), 'default');
    // A module's default export is its plugin: a function is taken as one (Fastify checks the rest).
    if (!isFunction<FastifyPluginAsyncZod>(plugin))
      throw new Error(`modules/${folder}/routes.ts has no default export plugin`);
    found.push(plugin);
  }
  return found;
}

/**
 * With Fastify's `requestTimeout`, a request whose headers and body have not all arrived within
 * `ms` is answered 408 and its connection closed, so a client trickling a body (slowloris) cannot
 * hold a socket open; only the upload is bounded, not a slow handler (a large export). Node checks
 * the deadline on an interval (30 s by default), shortened here so the cut comes near the deadline;
 * the headers' own deadline may not exceed the whole request's.
 */
function slowRequestChecks(ms: number): ServerOptions {
  return {
    headersTimeout: Math.min(60_000, ms),
    connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(ms / 4))),
  };
}

export async function buildApp({ config, db, logger, checkResponses }: BuildOptions) {
  // Process-wide, like TZ: every time the server writes or reads is in this zone.
  setBusinessTimeZone(config.timeZone);
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    genReqId: requestIds(config.trustProxy),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    frameworkErrors,
    requestTimeout: config.requestTimeoutMs,
    http: slowRequestChecks(config.requestTimeoutMs),
  }).withTypeProvider<ZodTypeProvider>();

  // Clients often send `Content-Type: application/json` on a body-less DELETE or POST; that is no body,
  // not a malformed one. Anything else goes to Fastify's own parser (which refuses __proto__ keys).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    createSerializerCompiler({ checkResponses: checkResponses ?? config.nodeEnv === 'test' }),
  );
  app.decorate('db', db);
  app.decorate('config', config);
  registerRequestIds(app);
  const metrics = createMetrics({
    db,
    process: config.metrics.token !== undefined || config.metrics.port !== undefined,
  });
  const deviceLink = createDeviceLink({ config, db, log: app.log, metrics: metrics.device });
  metrics.watchLink(() => deviceLink.status().up);
  app.decorate('devices', deviceLink);
  app.addHook('onReady', () => deviceLink.start());
  app.addHook('onClose', () => deviceLink.stop());

  registerErrorHandling(app);
  registerAuth(app);
  registerIdempotency(app);
  registerMetrics(app, metrics);

  await registerSecurityHeaders(app, config);
  await app.register(formbody);
  await app.register(rateLimit, {
    global: false,
    // Counted in the database so every instance on it shares one limit.
    store: databaseRateLimitStore(db),
    errorResponseBuilder: () => new AppError(429, messages.tooManyRequests),
  });
  await registerSwagger(app);

  for (const module of await loadModules()) await app.register(module);

  await registerWeb(app, config.webDist);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
