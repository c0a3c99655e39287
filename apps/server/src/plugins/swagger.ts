/** OpenAPI document generated from the routes' zod schemas; the UI lives at /api/docs. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

export async function registerSwagger(app: FastifyInstance) {
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
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX });
}
