/** The envelope every response but the token endpoint uses, and the error type handlers throw. */
import { z } from 'zod';
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
