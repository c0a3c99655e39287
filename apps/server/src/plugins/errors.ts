/**
 * One error handler: every failure leaves as the envelope with the HTTP status as its code and a
 * Chinese msg. 5xx details (stack, SQL) go to the log only.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { fieldInvalid, fieldLabels, messages, REQUEST_ID_HEADER } from '@cowork/contract';
import { checkLabels } from '../db/check-labels.ts';
import { constraintOf, databaseOutage, sqlState } from '../db/client.ts';
import { AppError, failure } from '../lib/http.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Chinese labels of the route's fields, so a 400 names the field (resources set them). */
    fieldLabels?: Record<string, string>;
  }
}

const contextLabels: Record<string, string> = {
  body: '请求内容',
  querystring: '查询参数',
  params: '路径参数',
  headers: '请求头',
};

/** Names the field of the first issue in Chinese where we have a label, else by its key. */
function validationMessage(
  issues: { instancePath: string; message?: string }[],
  context: string | undefined,
  routeLabels: Record<string, string> = {},
): string {
  const issue = issues[0];
  const keys = issue.instancePath.split('/').filter((k) => k !== '' && !/^\d+$/.test(k));
  const key = keys.at(-1);
  const label = key
    ? (routeLabels[key] ?? fieldLabels[key] ?? key)
    : (contextLabels[context ?? ''] ?? contextLabels.body);
  return fieldInvalid(label, issue.message ?? messages.badRequest);
}

/** NUL, or a UTF-16 surrogate without its pair: PostgreSQL cannot store either in text or jsonb. */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for.
const UNSAVABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The key path of the first string (or key) in a parsed body or query that cannot be saved. */
function unsavableAt(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value === 'string') return UNSAVABLE.test(value) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (UNSAVABLE.test(key)) return [...path, key];
    const found = unsavableAt(item, Array.isArray(value) ? path : [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** Chinese msg for errors raised by Fastify itself or its plugins, by status. */
function frameworkMessage(statusCode: number): string {
  switch (statusCode) {
    case 401:
      return messages.unauthorized;
    case 403:
      return messages.noPermission;
    case 404:
      return messages.notFound;
    case 409:
      return messages.conflict;
    case 413:
      return messages.payloadTooLarge;
    case 415:
      return messages.unsupportedMediaType;
    case 429:
      return messages.tooManyRequests;
    default:
      return messages.badRequest;
  }
}

/** A unique or foreign-key violation is a conflict with data someone else wrote, not a bug. */
const CONFLICT_STATES = new Set(['23505', '23503']);

/**
 * A value the database refused as data (a number out of range, text it cannot read or that is too
 * long): the request's fault, answered 400. The schemas catch these first; this is the backstop.
 */
const INPUT_STATES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '54000']);

const CHECK_VIOLATION = '23514';

/** What the caller reads when the database is down or too slow: it is not their fault, retry later. */
export const outageMessages = {
  unreachable: messages.databaseUnavailable,
  timeout: messages.databaseTimeout,
} as const;

export const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * Errors the router raises before any route or hook runs (a malformed %-escape in the path):
 * Fastify's `frameworkErrors` option, answered with the same envelope as every other 400.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  request.log.info({ err: error }, 'request refused');
  // No hook ran: the request id header (plugins/logging.ts) is set here.
  void reply.code(400).header(REQUEST_ID_HEADER, request.id).send(failure(400, messages.badUrl));
}

export function registerErrorHandling(app: FastifyInstance) {
  // Before any schema or handler: a text no column can keep is the caller's 400 naming the field,
  // never a database error (500) nor an export that breaks off after its 200.
  app.addHook('preValidation', (request, reply, done) => {
    for (const [context, value] of [
      ['querystring', request.query],
      ['params', request.params],
      ['body', request.body],
    ] as const) {
      const path = unsavableAt(value);
      if (!path) continue;
      const key = path.at(-1);
      const routeLabels = request.routeOptions.config?.fieldLabels ?? {};
      const label = key ? (routeLabels[key] ?? fieldLabels[key] ?? key) : contextLabels[context];
      // Answered here: a hook that answers does not call done.
      void reply.code(400).send(failure(400, fieldInvalid(label, messages.textUnsavable)));
      return;
    }
    done();
  });

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const msg = validationMessage(
        error.validation,
        error.validationContext,
        request.routeOptions.config?.fieldLabels,
      );
      return reply.code(400).send(failure(400, msg));
    }
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send(failure(error.statusCode, error.message));
    }
    const state = sqlState(error);
    if (state && CONFLICT_STATES.has(state)) {
      request.log.info({ sqlState: state }, 'conflicting write refused');
      return reply.code(409).send(failure(409, messages.conflict));
    }
    if (state === CHECK_VIOLATION) {
      request.log.warn({ err: error, sqlState: state }, 'value refused by a CHECK constraint');
      const label = checkLabels[constraintOf(error) ?? ''] ?? messages.someField;
      return reply.code(400).send(failure(400, fieldInvalid(label, messages.valueNotAllowed)));
    }
    if (state && INPUT_STATES.has(state)) {
      request.log.warn({ err: error, sqlState: state }, 'value refused by the database');
      return reply.code(400).send(failure(400, messages.valueOutOfRange));
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'request refused');
      return reply.code(status).send(failure(status, frameworkMessage(status)));
    }
    const outage = databaseOutage(error);
    if (outage) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.code(503).send(failure(503, outageMessages[outage]));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(failure(500, messages.serverError));
  });

  app.setNotFoundHandler((request, reply) => {
    const msg = isApiPath(request.url) ? messages.routeNotFound : messages.notFound;
    return reply.code(404).send(failure(404, msg));
  });
}
