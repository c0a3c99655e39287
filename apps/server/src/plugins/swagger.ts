/** OpenAPI document generated from the routes' zod schemas; the UI lives at /api/docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditLogRecord,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  menuItem,
  tokenResponse,
  userInfo,
} from '@cowork/contract';

export const DOCS_PREFIX = '/api/docs';

/**
 * Shared schemas become named components; the menu tree needs it, being recursive (a `$ref` to
 * itself must point at a component).
 */
const components: [z.ZodType, string][] = [
  [menuItem, 'MenuItem'],
  [userInfo, 'UserInfo'],
  [tokenResponse, 'TokenResponse'],
  [auditLogRecord, 'AuditLogRecord'],
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
  const { method, config } = input.route as { method: string | string[]; config?: { public?: boolean } };
  const posts = Array.isArray(method) ? method.includes('POST') : method === 'POST';
  const schema = out.schema as Record<string, unknown> & { consumes?: string[] };
  if (!posts || config?.public || schema.consumes?.includes('multipart/form-data')) return out;
  const headers = (schema.headers ?? { type: 'object', properties: {} }) as {
    properties?: Record<string, unknown>;
  };
  return {
    ...out,
    schema: {
      ...schema,
      headers: {
        ...headers,
        properties: { ...headers.properties, [IDEMPOTENCY_KEY_HEADER.toLowerCase()]: idempotencyHeader },
      },
    },
  };
}

export async function registerSwagger(app: FastifyInstance) {
  for (const [schema, id] of components) {
    if (!z.globalRegistry.has(schema)) z.globalRegistry.add(schema, { id });
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
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true });
}
