/** The envelope every response but the token endpoint uses, and the error type handlers throw. */
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { messages, SUCCESS_CODE, type Envelope } from '@cowork/contract';

/** An error whose status and Chinese message go to the caller as they are. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (msg: string = messages.badRequest) => new AppError(400, msg);
export const unauthorized = (msg: string = messages.unauthorized) => new AppError(401, msg);
export const forbidden = () => new AppError(403, messages.noPermission);
export const notFound = (msg: string = messages.notFound) => new AppError(404, msg);
export const conflict = (msg: string = messages.conflict) => new AppError(409, msg);

export function ok<T>(data: T, msg: string = messages.ok): Envelope<T> {
  return { code: SUCCESS_CODE, msg, data };
}

export function failure(code: number, msg: string): Envelope<null> {
  return { code, msg, data: null };
}

/** Response schema of an enveloped answer, for validation and OpenAPI. */
export const envelope = <T extends z.ZodType>(data: T) =>
  z.object({ code: z.number().int().describe(`${SUCCESS_CODE} on success`), msg: z.string(), data });

/** Response schema of an error answer. */
export const errorEnvelope = z.object({ code: z.number().int(), msg: z.string(), data: z.null() });

export const pageOf = <T extends z.ZodType>(record: T) =>
  z.object({
    records: z.array(record),
    total: z.number().int(),
    current: z.number().int(),
    size: z.number().int(),
  });

/**
 * A page's rows and the total of its list. The count runs only when it is not known already: a page
 * that is not full (and not empty past the first) ends the list, so its total is what came before
 * it plus its rows. A phone search of a few orders is one round trip, not two.
 */
export async function pageAndTotal<T>(
  page: { current: number; size: number },
  rows: () => Promise<T[]>,
  total: () => Promise<{ total: number }[]>,
) {
  const records = await rows();
  const ends = records.length < page.size && (records.length > 0 || page.current === 1);
  return {
    records,
    total: ends ? (page.current - 1) * page.size + records.length : (await total())[0].total,
    current: page.current,
    size: page.size,
  };
}

/**
 * A query parameter as text, or undefined when absent: for the filters a `where` hook reads beyond
 * the declared ones (the route's schema has already bounded and checked them).
 */
export function queryText(request: FastifyRequest, key: string): string | undefined {
  const query: Record<string, unknown> = Object(request.query);
  const value = query[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
