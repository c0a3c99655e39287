/**
 * Serves the built console (WEB_DIST) at /, with history fallback to index.html for page
 * addresses. /api/* never falls back: unknown API paths get the 404 envelope. Without a build the
 * server runs API-only.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { businessTimeZone } from '@cowork/contract';
import { isApiPath } from './errors.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
/** The meta tag of apps/web/index.html whose content the server fills in. */
const BUSINESS_TIME_ZONE_META = /(<meta name="business-time-zone" content=")[^"]*(")/;

async function isFile(file: string) {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

export async function registerWeb(app: FastifyInstance, webDist: string) {
  if (!(await isFile(path.join(webDist, 'index.html')))) {
    app.log.warn(
      { webDist },
      'web build not found; serving the API only (run `npm run build` for the console)',
    );
    return;
  }
  const root = path.resolve(webDist);
  // The build wrote .br and .gz beside each asset (scripts/compress-dist.mjs): sent as the browser accepts.
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });

  // index.html names the hashed assets of the current build, so it is never cached. It tells the
  // console the business time zone (contract time.ts) before any script runs.
  const sendIndex = async (reply: FastifyReply) => {
    const html = await fs.readFile(path.join(root, 'index.html'), 'utf8');
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html.replace(BUSINESS_TIME_ZONE_META, `$1${businessTimeZone()}$2`));
  };

  app.get(
    '/*',
    { config: { public: true }, schema: { hide: true } },
    async (request: FastifyRequest, reply) => {
      const pathname = request.url.split('?')[0];
      if (isApiPath(pathname)) return reply.callNotFound();
      let relative: string;
      try {
        relative = decodeURIComponent(pathname);
      } catch {
        return reply.callNotFound();
      }
      const absolute = path.resolve(root, `.${path.posix.normalize(relative)}`);
      const inside = absolute === root || absolute.startsWith(root + path.sep);
      if (inside && absolute !== root && (await isFile(absolute))) {
        const file = path.relative(root, absolute);
        if (file === 'index.html') return sendIndex(reply);
        // Vite puts content-hashed files under assets/: they never change under one name.
        const hashed = file.startsWith(`assets${path.sep}`);
        return reply.sendFile(file, root, hashed ? { maxAge: YEAR_SECONDS * 1000, immutable: true } : {});
      }
      if (request.headers.accept?.includes('text/html')) return sendIndex(reply);
      return reply.callNotFound();
    },
  );
}
