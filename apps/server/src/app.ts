/**
 * Builds the Fastify app (no listen): compilers, error handling, auth, docs, then one module per
 * resource, then the web build. main.ts and the tests call it with their own config and database.
 */
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type FastifyPluginAsyncZod,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '@cowork/contract';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { AppError } from './lib/http.ts';
import { auditLogRoutes } from './modules/audit-log/routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { csrSourceRoutes } from './modules/csr-source/routes.ts';
import { menuIconRoutes } from './modules/menu-icons/routes.ts';
import { ssoMenuRoutes } from './modules/sso-menu/routes.ts';
import { ssoUserRoutes } from './modules/sso-user/routes.ts';
import { registerAuth } from './plugins/auth.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerSwagger } from './plugins/swagger.ts';
import { registerWeb } from './plugins/web.ts';

// Messages zod writes itself (a wrong type, a missing field) are in Chinese like ours.
z.config(z.locales.zhCN());

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    config: Config;
  }
}

export interface BuildOptions {
  config: Config;
  db: Database;
  /** Fastify logger options; false silences it (tests). */
  logger?: FastifyServerOptions['logger'];
}

/** One entry per resource: adding a resource means adding its module here. */
const modules: FastifyPluginAsyncZod[] = [
  healthRoutes,
  authRoutes,
  ssoUserRoutes,
  ssoMenuRoutes,
  auditLogRoutes,
  menuIconRoutes,
  csrSourceRoutes,
];

const SECRET_PARAMS = /([?&](?:password|refresh_token|client_secret|access_token)=)[^&]*/gi;

/** Request log lines never carry secrets, not even those sent in a query string. */
function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: request.url.replace(SECRET_PARAMS, '$1***'),
        remoteAddress: request.ip,
      }),
    },
    ...(config.nodeEnv === 'development' && process.stdout.isTTY
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

export async function buildApp({ config, db, logger }: BuildOptions) {
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    trustProxy: config.trustProxy,
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
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);

  registerErrorHandling(app);
  registerAuth(app);

  await app.register(formbody);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, messages.tooManyRequests),
  });
  await registerSwagger(app);

  for (const module of modules) await app.register(module);

  await registerWeb(app, config.webDist);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
