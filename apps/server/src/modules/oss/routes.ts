/**
 * File uploads (oss upload and oss remove: every image and file field of the console) and the file
 * host that serves them.
 *
 * - POST /api/basic/admin/v1/oss/upload: multipart, one or more files in field `file`; the optional
 *   fields `accept` (comma list of extensions) and `maxSizeKb` can only narrow the server's limits.
 *   Every file is checked for extension, size and actual content before any is stored.
 * - DELETE /api/basic/admin/v1/oss (`{url}` or `?url=`): one's own files, or anyone's with
 *   system:oss:remove.
 * - GET /file/uploads/{key}: images are public, as an image host is (banners, logos, covers);
 *   long-cached, nosniff, and locked down by a Content-Security-Policy so an SVG opened directly
 *   cannot run script. Every other file (invoice PDFs, spreadsheets, documents) is private: served
 *   only to signed-in staff (bearer header, or the console's access_token cookie when the browser
 *   opens the link) who uploaded it, may remove any upload, or may view a record holding it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMAGE_EXTENSIONS,
  messages,
  UPLOAD_EXTENSIONS,
  UPLOAD_FILE_BASE,
  UPLOAD_MAX_FILES,
  UPLOAD_MAX_SIZE_KB,
  UPLOAD_REMOVE_PERMISSION,
  uploadEndpoints,
  uploadMessages,
  uploadUrl,
  type UploadedFileInfo,
  type UploadExtension,
} from '@cowork/contract';
import { invoice, tripartiteInvoice } from '@cowork/contract/resources/invoice';
import { invoices, uploadedFiles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, badRequest, envelope, forbidden, notFound, ok, unauthorized } from '../../lib/http.ts';
import type { Database } from '../../db/client.ts';
import { fileDay } from '../../lib/excel-export.ts';
import { bearerToken, cookieToken, currentUser, hasPermission, userOfToken } from '../../plugins/auth.ts';
import { inspectContent } from './content.ts';
import { openStorage } from './storage.ts';
import { propertyOf, textOf } from '../../lib/unknown.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;
const SERVER_MAX_BYTES = UPLOAD_MAX_SIZE_KB * 1024;
/** A whole upload request: every file at its largest plus room for the form's other parts. */
export const UPLOAD_REQUEST_MAX_BYTES = UPLOAD_MAX_FILES * SERVER_MAX_BYTES + 64 * 1024;
/** The kinds whose check reads the whole file; the others are told apart by their first bytes. */
const READ_WHOLE = new Set(['csv', 'svg', 'xlsx']);
const HEAD_BYTES = 4096;

/** `20250131/` + 32 hex digits (128 random bits) + `.` + an accepted extension. */
const KEY_PATTERN = new RegExp(`^\\d{8}/[0-9a-f]{32}\\.(?:${UPLOAD_EXTENSIONS.join('|')})$`);

/** Served inline (shown in the browser); the rest is offered as a download. */
const INLINE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'pdf']);

/** No script, no plugins, no requests, an opaque origin: only the file itself and its inline styles. */
const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The records that hold private files, and the code that lets staff view each: whoever may see the
 * record may open its file. A resource that stores a document adds its line here.
 */
const privateFileHolders: {
  holders: (db: Database, url: string) => Promise<string[]>;
}[] = [
  {
    // An issued invoice's PDF: viewers of that kind of invoice (经营发票, 机场贵宾厅发票).
    holders: async (db, url) => {
      const rows = await db.select({ kind: invoices.kind }).from(invoices).where(eq(invoices.fileUrl, url));
      return rows.map(
        (row) => `${(row.kind === tripartiteInvoice.kind ? tripartiteInvoice : invoice).permission}:view`,
      );
    },
  },
];

const uploadedFile = z.object({
  url: z.string().describe(`Where the file is served (${UPLOAD_FILE_BASE}/{key})`),
  key: z.string(),
  name: z.string().describe('The file name on the uploader’s computer'),
  size: z.number().int().describe('Bytes'),
  contentType: z.string(),
}) satisfies z.ZodType<UploadedFileInfo>;

const extensionOf = (name: string) => (name.includes('.') ? name.split('.').pop()!.toLowerCase() : '');

/** The client's file name as a plain label: no path, no control characters, at most 255 characters. */
function cleanName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const plain = [...base].filter((c) => c.codePointAt(0)! >= 0x20 && c !== '\u007f').join('');
  return [...plain.trim()].slice(0, 255).join('') || 'file';
}

/** A file named in a message: `文件「a.png」：…`, the name shortened when long. */
function aboutFile(name: string, text: string): string {
  const chars = [...name];
  const shown = chars.length > 40 ? `${chars.slice(0, 20).join('')}…${chars.slice(-15).join('')}` : name;
  return `文件「${shown}」：${text}`;
}

const tooLarge = (name: string | undefined, maxKb: number) => {
  const text = messages.uploadTooLarge.replace('{max}', String(maxKb));
  return new AppError(413, name ? aboutFile(name, text) : text);
};

/** The `accept` field: the extensions it names that the server also accepts. */
function narrowAccept(raw: string | undefined): readonly UploadExtension[] {
  if (raw === undefined || raw.trim() === '') return UPLOAD_EXTENSIONS;
  const asked = raw
    .split(/[,，;\s]+/)
    .map((a) =>
      a
        .trim()
        .replace(/^\*?\./, '')
        .toLowerCase(),
    )
    .filter(Boolean);
  const allowed = UPLOAD_EXTENSIONS.filter((e) => asked.includes(e));
  if (allowed.length === 0) throw badRequest(uploadMessages.acceptInvalid);
  return allowed;
}

/** The `maxSizeKb` field: the lower of it and the server's limit. */
function narrowMaxKb(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return UPLOAD_MAX_SIZE_KB;
  const value = Number(raw.trim());
  if (!Number.isInteger(value) || value <= 0) throw badRequest(uploadMessages.maxSizeInvalid);
  return Math.min(value, UPLOAD_MAX_SIZE_KB);
}

/** A storage key or a served address (relative or absolute) → the key, if it can be one. */
function keyOfUrl(url: string): string | undefined {
  let pathname = url.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(pathname)) {
    try {
      pathname = new URL(pathname).pathname;
    } catch {
      return undefined;
    }
  }
  pathname = pathname.split(/[?#]/)[0];
  if (pathname.startsWith(`${UPLOAD_FILE_BASE}/`)) pathname = pathname.slice(UPLOAD_FILE_BASE.length + 1);
  try {
    pathname = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  return KEY_PATTERN.test(pathname) ? pathname : undefined;
}

/** `attachment; filename="…"; filename*=UTF-8''…`: an ASCII fallback and the original name. */
function contentDisposition(kind: 'inline' | 'attachment', key: string, originalName: string): string {
  const fallback = key.split('/').pop()!;
  const encoded = encodeURIComponent(originalName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** A file of the request, streamed to a temporary file as it arrived (never held in memory). */
interface Received {
  name: string;
  file: string;
  size: number;
  sha256: string;
}

/** What the content check needs of a received file: all of it for text and packages, else its head. */
async function sampleOf(received: Received, extension: string): Promise<Buffer> {
  if (READ_WHOLE.has(extension)) return fs.readFile(received.file);
  const handle = await fs.open(received.file, 'r');
  try {
    const head = Buffer.alloc(Math.min(HEAD_BYTES, received.size));
    await handle.read(head, 0, head.length, 0);
    return head;
  } finally {
    await handle.close();
  }
}

export const ossRoutes: FastifyPluginAsyncZod = async (app) => {
  const storage = await openStorage(app.config);
  const tmpDir = path.join(app.config.dataDir, 'tmp');
  await fs.mkdir(tmpDir, { recursive: true });

  // Registered here, so only these routes parse multipart bodies.
  await app.register(multipart, {
    limits: {
      fileSize: SERVER_MAX_BYTES,
      files: UPLOAD_MAX_FILES,
      fields: 10,
      fieldSize: 2048,
      parts: UPLOAD_MAX_FILES + 10,
      headerPairs: 100,
    },
  });

  app.post(
    uploadEndpoints.upload,
    {
      config: { auth: true },
      // A body announced larger than any upload can be is refused before a byte of it is read, and
      // the connection closed so the rest is never read either.
      onRequest: async (request, reply) => {
        if (Number(request.headers['content-length'] ?? 0) > UPLOAD_REQUEST_MAX_BYTES) {
          void reply.header('connection', 'close');
          throw tooLarge(undefined, UPLOAD_MAX_SIZE_KB);
        }
      },
      schema: {
        tags: ['oss'],
        summary: 'Upload files (multipart field `file`, one or several)',
        description:
          `Accepted: ${UPLOAD_EXTENSIONS.join(', ')}; at most ${UPLOAD_MAX_SIZE_KB} KB and ` +
          `${UPLOAD_MAX_FILES} files per request. Optional form fields: \`accept\` (comma list of ` +
          'extensions) and `maxSizeKb`, which can only narrow these limits. The content must match ' +
          'the extension. Answers one file, or an array when several were sent.',
        consumes: ['multipart/form-data'],
        response: { 200: envelope(z.union([uploadedFile, z.array(uploadedFile)])) },
      },
    },
    async (request, reply) => {
      const caller = currentUser(request);
      if (!request.isMultipart()) throw badRequest(uploadMessages.notMultipart);

      const received: Received[] = [];
      const fields: { accept?: string; maxSizeKb?: string } = {};
      try {
        return await receiveAndStore();
      } catch (error) {
        // Refused while the body still arrives: close the connection rather than read the rest.
        if (error instanceof AppError && error.statusCode === 413) {
          request.raw.unpipe();
          request.raw.pause();
          void reply.header('connection', 'close');
        }
        throw error;
      } finally {
        await Promise.all(received.map((r) => fs.rm(r.file, { force: true })));
      }

      async function receiveAndStore() {
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              if (part.fieldname === 'accept' || part.fieldname === 'maxSizeKb') {
                fields[part.fieldname] = String(part.value);
              }
              continue;
            }
            if (part.fieldname !== 'file') throw badRequest(uploadMessages.wrongField);
            const name = cleanName(part.filename);
            const file = path.join(tmpDir, randomBytes(16).toString('hex'));
            const hash = createHash('sha256');
            const entry: Received = { name, file, size: 0, sha256: '' };
            received.push(entry);
            part.file.on('data', (chunk: Buffer) => {
              entry.size += chunk.length;
              hash.update(chunk);
            });
            // At the limit, stop: the parser would otherwise read (and discard) the rest of the part.
            const maxKb = Math.min(UPLOAD_MAX_SIZE_KB, Number(fields.maxSizeKb) || UPLOAD_MAX_SIZE_KB);
            part.file.once('limit', () => part.file.destroy(tooLarge(name, maxKb)));
            await pipeline(part.file, createWriteStream(file, { flags: 'wx' }));
            entry.sha256 = hash.digest('hex');
          }
        } catch (error) {
          if (error instanceof AppError) throw error;
          const code = textOf(error, 'code');
          if (code === 'FST_REQ_FILE_TOO_LARGE') {
            const part = propertyOf(error, 'part');
            const maxKb = Math.min(UPLOAD_MAX_SIZE_KB, Number(fields.maxSizeKb) || UPLOAD_MAX_SIZE_KB);
            throw tooLarge(part ? cleanName(textOf(part, 'filename')) : undefined, maxKb);
          }
          if (code === 'FST_FILES_LIMIT') throw badRequest(uploadMessages.tooManyFiles);
          request.log.info({ err: error }, 'unreadable multipart upload');
          throw badRequest(uploadMessages.badForm);
        }

        const accept = narrowAccept(fields.accept);
        const maxKb = narrowMaxKb(fields.maxSizeKb);
        if (received.length === 0) throw badRequest(uploadMessages.fileRequired);

        // Every file is checked before any is stored: a request is taken whole or not at all.
        const checked: (typeof uploadedFiles.$inferInsert & { file: string })[] = [];
        for (const entry of received) {
          const { name } = entry;
          const extension = accept.find((e) => e === extensionOf(name));
          if (!extension) {
            throw badRequest(aboutFile(name, messages.uploadBadType + accept.join('、')));
          }
          if (entry.size > maxKb * 1024) throw tooLarge(name, maxKb);
          if (entry.size === 0) throw badRequest(aboutFile(name, uploadMessages.empty));
          const verdict = inspectContent(extension, await sampleOf(entry, extension));
          if (!verdict.ok) {
            const text =
              verdict.reason === 'mismatch'
                ? uploadMessages.contentMismatch.replaceAll('{ext}', extension)
                : uploadMessages[verdict.reason];
            throw badRequest(aboutFile(name, text));
          }
          const day = fileDay();
          checked.push({
            key: `${day}/${randomBytes(16).toString('hex')}.${extension}`,
            originalName: name,
            contentType: verdict.contentType,
            sizeBytes: entry.size,
            sha256: entry.sha256,
            uploadedBy: caller.id,
            file: entry.file,
          });
        }

        const stored: string[] = [];
        try {
          for (const file of checked) {
            await storage.putFile(file.key, file.file, file.contentType);
            stored.push(file.key);
          }
          await app.db.transaction(async (tx) => {
            for (const { file: _file, ...row } of checked) {
              const [inserted] = await tx.insert(uploadedFiles).values(row).returning();
              const { id: _id, createdAt: _createdAt, ...recorded } = inserted;
              await audit(
                request,
                { action: 'upload', resource: 'oss', resourceId: row.key, after: recorded },
                tx,
              );
            }
          });
        } catch (error) {
          // Nothing half-done stays behind: files already written are removed again.
          await Promise.all(stored.map((key) => storage.remove(key).catch(() => undefined)));
          throw error;
        }

        const answers: UploadedFileInfo[] = checked.map((f) => ({
          url: uploadUrl(f.key),
          key: f.key,
          name: f.originalName,
          size: f.sizeBytes,
          contentType: f.contentType,
        }));
        return ok(answers.length === 1 ? answers[0] : answers);
      }
    },
  );

  const urlField = z.string().max(2000).optional();

  app.delete(
    uploadEndpoints.remove,
    {
      config: { auth: true, fieldLabels: { url: '文件地址' } },
      schema: {
        tags: ['oss'],
        summary: `Remove an uploaded file (one's own, or anyone's with ${UPLOAD_REMOVE_PERMISSION})`,
        description: 'The file is named by its served address or key, as body `{url}` or query `url`.',
        body: z.object({ url: urlField }).nullish(),
        querystring: z.object({ url: urlField }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const url = request.body?.url ?? request.query.url;
      if (!url || url.trim() === '') throw badRequest(uploadMessages.urlRequired);
      const key = keyOfUrl(url);
      if (!key) throw notFound(uploadMessages.fileNotFound);

      await app.db.transaction(async (tx) => {
        const [row] = await tx.select().from(uploadedFiles).where(eq(uploadedFiles.key, key)).for('update');
        if (!row) throw notFound(uploadMessages.fileNotFound);
        if (row.uploadedBy !== caller.id && !hasPermission(caller, UPLOAD_REMOVE_PERMISSION))
          throw forbidden();
        await tx.delete(uploadedFiles).where(eq(uploadedFiles.id, row.id));
        const { id: _id, ...recorded } = row;
        await audit(request, { action: 'remove', resource: 'oss', resourceId: key, before: recorded }, tx);
      });
      // After the commit: a failure here leaves an unreferenced file, never a row without its file.
      await storage.remove(key).catch((error: unknown) => {
        request.log.warn({ err: error, key }, 'removed upload row but not its file');
      });
      return ok(null);
    },
  );

  app.get(
    `${UPLOAD_FILE_BASE}/*`,
    {
      config: { public: true },
      schema: { hide: true, params: z.object({ '*': z.string() }) },
    },
    async (request, reply) => {
      const key = request.params['*'];
      if (!KEY_PATTERN.test(key)) throw notFound();
      const [row] = await app.db
        .select({
          contentType: uploadedFiles.contentType,
          originalName: uploadedFiles.originalName,
          sha256: uploadedFiles.sha256,
          uploadedBy: uploadedFiles.uploadedBy,
        })
        .from(uploadedFiles)
        .where(eq(uploadedFiles.key, key));
      if (!row) throw notFound();

      const extension = extensionOf(key);
      const isPublic = IMAGE_EXTENSIONS.includes(extension);
      if (!isPublic) await mayReadPrivate(request, key, row.uploadedBy);

      const etag = `"${row.sha256}"`;
      const headers: Record<string, string> = {
        // A private file is asked for again each time (a 304 after the check), so a revoked right holds.
        'cache-control': isPublic ? `public, max-age=${YEAR_SECONDS}, immutable` : 'private, no-cache',
        'x-content-type-options': 'nosniff',
        etag,
        'content-disposition': contentDisposition(
          INLINE_EXTENSIONS.has(extension) ? 'inline' : 'attachment',
          key,
          row.originalName,
        ),
        // Browsers' PDF viewers do not run under a sandboxing policy; PDF script stays in the viewer.
        ...(extension === 'pdf' ? {} : { 'content-security-policy': FILE_CSP }),
      };
      if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();

      const object = await storage.get(key);
      if (!object) throw notFound();
      return reply
        .headers(headers)
        .header('content-type', row.contentType)
        .header('content-length', String(object.size))
        .send(object.stream);
    },
  );
};

/** Throws unless the caller may open this private file (see the module comment). */
async function mayReadPrivate(request: FastifyRequest, key: string, uploadedBy: number | null) {
  const token = bearerToken(request) ?? cookieToken(request);
  if (!token) throw unauthorized(uploadMessages.privateSignIn);
  const { user } = await userOfToken(request.server, token);
  if (user.id === uploadedBy || hasPermission(user, UPLOAD_REMOVE_PERMISSION)) return;
  for (const { holders } of privateFileHolders) {
    const codes = await holders(request.server.db, uploadUrl(key));
    if (codes.some((code) => hasPermission(user, code))) return;
  }
  throw new AppError(403, uploadMessages.privateForbidden);
}

export default ossRoutes;
