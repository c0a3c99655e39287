/** OpenAPI document generated from the routes' zod schemas; the UI lives at /api/docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditLogRecord, menuItem, tokenResponse, userInfo } from '@cowork/contract';

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
    transform: createJsonSchemaTransform({
      skipList: [`${DOCS_PREFIX}/`, `${DOCS_PREFIX}/json`, `${DOCS_PREFIX}/yaml`, `${DOCS_PREFIX}/*`],
    }),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
}
