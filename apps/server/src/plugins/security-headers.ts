/**
 * Headers every answer carries (helmet), and compression of API answers (@fastify/compress).
 * The console is one origin: its scripts and styles come from it, with inline styles allowed because
 * antd writes its CSS-in-JS into <style> elements; images may also be data:/blob: previews and
 * https: addresses staff paste (banners). No frames may hold it, no plugins run, and HSTS is sent
 * only when TRUST_PROXY says a proxy in front ends TLS. Uploaded files set their own stricter
 * policy (modules/oss/routes.ts). The API docs page sets its own (plugins/swagger.ts).
 */
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config, TrustProxy } from '../config.ts';

export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
};

/** JSON smaller than this goes as it is: compressing it costs more than it saves. */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** Whether TRUST_PROXY names a proxy in front (which ends TLS, as docs/deploy.md sets it up). */
const behindProxy = (trustProxy: TrustProxy) =>
  Array.isArray(trustProxy) ? trustProxy.length > 0 : Boolean(trustProxy);

/**
 * Helmet's headers for our options, worked out once. They are the same for every answer, and
 * @fastify/helmet rebuilt the whole middleware (parsing the policy anew) on each request: a sixth
 * of the cost of a small authenticated answer. Routes with their own policy set it over these.
 */
function securityHeaders(config: Config) {
  // A response that is never sent collects them.
  const request = new IncomingMessage(new Socket());
  const collect = new ServerResponse(request);
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    strictTransportSecurity: behindProxy(config.trustProxy)
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Uploaded images are shown by the console only; nothing else embeds it.
    crossOriginEmbedderPolicy: false,
  })(request, collect, () => undefined);
  return Object.fromEntries(
    Object.entries(collect.getHeaders()).map(([name, value]) => [name, String(value)]),
  );
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config) {
  const headers = securityHeaders(config);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    // On the fly: a light brotli level (the static files are compressed at build, at the highest).
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
