/**
 * Logs you can follow and may keep: every line a request writes carries its id (`reqId`), the
 * answer returns it in `X-Request-Id` (errors included) so a user can quote it (the console's error
 * toast shows it as 请求编号), and no line carries a secret, token, password or full phone number:
 * - the id is the one a trusted proxy (TRUST_PROXY) sent in `X-Request-Id` when it is a short plain
 *   token, else a new random one (a client cannot choose the id another request is logged under);
 * - requests are logged by method, path and address only: secret query values are hidden and phone
 *   numbers masked (`138****0000`); headers and bodies are never logged, and the header paths below
 *   are redacted should any line carry them;
 * - errors are logged by type, message, stack and code, without what a driver attaches: drizzle puts
 *   a failed statement's parameters in its message, PostgreSQL a row's values in `detail`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import { maskPhone, REQUEST_ID_HEADER, REQUEST_ID_PATTERN } from '@cowork/contract';
import type { Config, TrustProxy } from '../config.ts';
import { propertyOf } from '../lib/unknown.ts';

/** Query values that are credentials: sign-in, tokens, signed links (firmware `sig`, robots' `sign`). */
const SECRET_PARAMS =
  /([?&](?:password|refresh_token|client_secret|access_token|token|secret|key|api_key|sig|sign)=)[^&]*/gi;

/** A mainland mobile number standing alone (not inside a longer run of digits). */
const PHONE_NUMBERS = /(?<!\d)1[3-9]\d{9}(?!\d)/g;

/** A text with its phone numbers masked, as the screens show them. */
export const maskPhones = (text: string) => text.replace(PHONE_NUMBERS, maskPhone);

/** A request's address as logged: secret query values hidden, phone numbers masked. */
export const loggedUrl = (url: string) => maskPhones(url.replace(SECRET_PARAMS, '$1***'));

/** Where a line could carry credentials if something logged headers; pino writes `***` there. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  'headers["set-cookie"]',
  'password',
  'secret',
  '*.password',
  '*.secret',
];

/** The fields of an error that are its own and never carry data: code, constraint, status… */
const ERROR_FIELDS = ['code', 'statusCode', 'constraint', 'table', 'column', 'severity', 'routine'];

type LoggedError = { type: string; message: string; stack: string; [field: string]: unknown };

/**
 * An error as a log line keeps it: its chain of causes (to a depth of 4), each by type, message,
 * stack and the fields above. drizzle's "params: …" line is cut from message and stack.
 */
export function loggedError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: maskPhones(String(error)), stack: '' };
  const message = error.message.replace(/\nparams: [\s\S]*$/, '\nparams: (hidden)');
  const logged: LoggedError = {
    type: error.name,
    message: maskPhones(message),
    stack: maskPhones((error.stack ?? '').replace(error.message, message)),
  };
  for (const field of ERROR_FIELDS) {
    const value = propertyOf(error, field);
    if (typeof value === 'string' || typeof value === 'number') logged[field] = value;
  }
  if (error.cause !== undefined && depth < 3) logged.cause = loggedError(error.cause, depth + 1);
  return logged;
}

/** Whether the connection's peer is a proxy TRUST_PROXY trusts (the one that sets X-Request-Id). */
function trustedPeer(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust >= 1;
  const trusted = proxyAddr.compile(trust);
  return (address) => trusted(address, 0);
}

/** Fastify's genReqId: a trusted proxy's sane X-Request-Id, else 16 random hex digits. */
export function requestIds(trust: TrustProxy) {
  const fromTrusted = trustedPeer(trust);
  const header = REQUEST_ID_HEADER.toLowerCase();
  return (request: IncomingMessage) => {
    const given = request.headers[header];
    if (
      typeof given === 'string' &&
      REQUEST_ID_PATTERN.test(given) &&
      fromTrusted(request.socket.remoteAddress ?? '')
    )
      return given;
    return randomBytes(8).toString('hex');
  };
}

/** The app's logger: level, what a request and an error leave in a line, and the redacted paths. */
export function loggerOptions(config: Config): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED, censor: '***' },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        remoteAddress: request.ip,
      }),
      err: loggedError,
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

/** Every answer carries its request's id, set before anything can fail (a 404, a refusal, a 500). */
export function registerRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
}
