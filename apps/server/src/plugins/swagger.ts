/** OpenAPI document generated from the routes' zod schemas; the UI lives at /api/docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../lib/http.ts';
import { propertyOf, recordOf } from '../lib/unknown.ts';
import { bearerToken, cookieToken, userOfToken } from './auth.ts';
import {
  auditLogRecord,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  menuItem,
  tokenResponse,
  userInfo,
  webhookEventSchemas,
  webhookEventTypes,
} from '@cowork/contract';

export const DOCS_PREFIX = '/api/docs';

/** The 401 of the docs in production: where to sign in first. */
export const DOCS_SIGN_IN = 'API 文档仅对已登录的员工开放，请先在本站登录控制台，再打开 /api/docs';

/**
 * Shared schemas become named components; the menu tree needs it, being recursive (a `$ref` to
 * itself must point at a component).
 */
const components: [z.ZodType, string][] = [
  [menuItem, 'MenuItem'],
  [userInfo, 'UserInfo'],
  [tokenResponse, 'TokenResponse'],
  [auditLogRecord, 'AuditLogRecord'],
  // 开放平台's events reach no route: listed so that receivers find each type's data in the docs.
  ...webhookEventTypes.map((type): [z.ZodType, string] => [
    webhookEventSchemas[type],
    `WebhookEvent.${type}`,
  ]),
];

const zodTransform = createJsonSchemaTransform({
  skipList: [`${DOCS_PREFIX}/`, `${DOCS_PREFIX}/json`, `${DOCS_PREFIX}/yaml`, `${DOCS_PREFIX}/*`],
});

/** The header plugins/idempotency.ts honours on every signed-in JSON POST, described where it applies. */
const idempotencyHeader = {
  type: 'string',
  pattern: IDEMPOTENCY_KEY_PATTERN.source,
  description:
    'Optional. A repeat of this POST with the same key and body within 24 h answers the first ' +
    'result (header `idempotent-replayed: true`) without writing again; another body is a 422.',
};

type TransformInput = Parameters<typeof zodTransform>[0];

/** Zod schemas to JSON Schema, plus the Idempotency-Key header on the POSTs that honour it. */
function transform(input: TransformInput) {
  const out = zodTransform(input);
  const method = propertyOf(input.route, 'method');
  const posts = Array.isArray(method) ? method.includes('POST') : method === 'POST';
  const isPublic = propertyOf(propertyOf(input.route, 'config'), 'public') === true;
  const schema = recordOf(out.schema);
  const consumes = propertyOf(schema, 'consumes');
  if (!posts || isPublic || (Array.isArray(consumes) && consumes.includes('multipart/form-data'))) return out;
  const headers = schema.headers === undefined ? { type: 'object' } : recordOf(schema.headers);
  return {
    ...out,
    schema: {
      ...schema,
      headers: {
        ...headers,
        properties: {
          ...recordOf(headers.properties),
          [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: idempotencyHeader,
        },
      },
    },
  };
}

/**
 * The docs (page, assets, JSON and YAML) for signed-in staff only (production unless API_DOCS=public):
 * a browser opening /api/docs sends the console's `access_token` cookie, a script its bearer token.
 */
function staffOnly(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    const token = bearerToken(request) ?? cookieToken(request);
    if (!token) throw new AppError(401, DOCS_SIGN_IN);
    // An unknown, expired or disabled one answers as on any route (401 / 424, saying which).
    await userOfToken(app, token);
  };
}

export async function registerSwagger(app: FastifyInstance) {
  for (const [schema, id] of components) {
    // A described schema is in the registry already, without an id: the id joins its description.
    const meta = z.globalRegistry.get(schema);
    if (!meta?.id) z.globalRegistry.add(schema, { ...meta, id });
  }
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'cowork-admin API',
        description:
          'Back-office API of the coworking console. Every answer but the token endpoint is `{code, msg, data}`.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  // Its own page needs its own inline script hashes: staticCSP replaces the console's policy there.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: true,
    ...(!app.config.apiDocsPublic && { uiHooks: { onRequest: staffOnly(app) } }),
  });
}
