/**
 * Firmware files: the upload (multipart `file`, `version`, `model`, `remark`), streamed to a
 * temporary file with its SHA-256 computed as it arrives and then handed to the storage driver, so
 * no upload is ever held in memory; the list; and the download devices are sent a signed link to.
 *
 * A file too large, empty or cut off leaves neither a stored file nor a row; (model, version) is
 * unique. The download needs no session, only a link the server signed that has not expired.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  doorOperationEndpoints,
  FIRMWARE_EDIT_PERMISSION,
  FIRMWARE_VIEW_PERMISSION,
  firmwareDownloadQuery,
  firmwareFieldLabels,
  firmwareMessages,
  firmwarePageQuery,
  firmwareRecord,
  firmwareUploaded,
  firmwareUploadFields,
} from '@cowork/contract';
import { sqlState } from '../../db/client.ts';
import { firmwareFiles } from '../../db/schema.ts';
import { audit } from '../../lib/audit.ts';
import {
  AppError,
  badRequest,
  conflict,
  envelope,
  notFound,
  ok,
  pageAndTotal,
  pageOf,
} from '../../lib/http.ts';
import { toIso } from '../../lib/time.ts';
import { textOf } from '../../lib/unknown.ts';
import { currentUser } from '../../plugins/auth.ts';
import { openStorage } from '../oss/storage.ts';

const tags = ['firmware'];
/** Room for the form's text fields and boundaries beside the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

/** The client's file name as a plain label: no path, no control characters, at most 200 characters. */
function cleanName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const plain = [...base].filter((c) => c.codePointAt(0)! >= 0x20 && c !== '\u007f').join('');
  return [...plain.trim()].slice(0, 200).join('') || 'firmware.bin';
}

type FirmwareRow = typeof firmwareFiles.$inferSelect;

const recordOf = (r: FirmwareRow) => ({
  id: r.id,
  model: r.model,
  version: r.version,
  sha256: r.sha256,
  size: r.size,
  fileName: r.fileName,
  remark: r.remark,
  createdBy: r.createdBy,
  createdAt: toIso(r.createdAt),
});

export const firmwareFileRoutes: FastifyPluginAsyncZod = async (app) => {
  const storage = await openStorage(app.config);
  const tmpDir = path.join(app.config.dataDir, 'tmp');
  await fs.mkdir(tmpDir, { recursive: true });
  const maxBytes = app.config.firmwareMaxBytes;
  const tooLarge = () => new AppError(413, firmwareMessages.tooLarge(maxBytes));

  // Registered here, so only these routes parse multipart bodies.
  await app.register(multipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 100 },
  });

  app.post(
    doorOperationEndpoints.firmwareUpload,
    {
      config: { permission: FIRMWARE_EDIT_PERMISSION, fieldLabels: firmwareFieldLabels.upload },
      // A body announced larger than any firmware can be is refused before a byte of it is read.
      onRequest: async (request, reply) => {
        if (Number(request.headers['content-length'] ?? 0) > maxBytes + FORM_OVERHEAD_BYTES) {
          void reply.header('connection', 'close');
          throw tooLarge();
        }
      },
      schema: {
        tags,
        summary: 'Upload a firmware file (multipart `file`, `version`, `model`, optional `remark`)',
        description: `At most ${maxBytes} bytes; hashed (SHA-256) as it streams; (model, version) unique.`,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(firmwareUploaded) },
      },
    },
    async (request, reply) => {
      const caller = currentUser(request);
      if (!request.isMultipart()) throw badRequest(firmwareMessages.notMultipart);
      const fields: Record<string, string> = {};
      let received: { file: string; name: string; size: number; sha256: string } | undefined;
      try {
        try {
          for await (const part of request.parts()) {
            if (part.type === 'field') {
              if (['version', 'model', 'remark'].includes(part.fieldname))
                fields[part.fieldname] = String(part.value);
              continue;
            }
            if (part.fieldname !== 'file' || received) throw badRequest(firmwareMessages.oneFile);
            const entry = {
              file: path.join(tmpDir, randomBytes(16).toString('hex')),
              name: cleanName(part.filename),
              size: 0,
              sha256: '',
            };
            received = entry;
            const hash = createHash('sha256');
            part.file.on('data', (chunk: Buffer) => {
              entry.size += chunk.length;
              hash.update(chunk);
            });
            // At the limit, stop: the parser would otherwise read (and discard) the rest.
            part.file.once('limit', () => part.file.destroy(tooLarge()));
            await pipeline(part.file, createWriteStream(entry.file, { flags: 'wx' }));
            entry.sha256 = hash.digest('hex');
          }
        } catch (error) {
          if (error instanceof AppError) throw error;
          if (textOf(error, 'code') === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          if (textOf(error, 'code') === 'FST_FILES_LIMIT') throw badRequest(firmwareMessages.oneFile);
          request.log.info({ err: error }, 'firmware upload cut off or unreadable');
          // The form broke while the file was arriving: the connection was cut mid-file.
          const midFile = received !== undefined && received.sha256 === '';
          throw badRequest(midFile ? firmwareMessages.cutOff : firmwareMessages.badForm);
        }
        const parsed = firmwareUploadFields.safeParse(fields);
        if (!parsed.success) throw badRequest(parsed.error.issues[0].message);
        if (!received) throw badRequest(firmwareMessages.fileRequired);
        if (received.size === 0) throw badRequest(firmwareMessages.empty);
        if (received.size > maxBytes) throw tooLarge();
        const { version, model, remark } = parsed.data;
        const [taken] = await app.db
          .select({ id: firmwareFiles.id })
          .from(firmwareFiles)
          .where(and(eq(firmwareFiles.model, model), eq(firmwareFiles.version, version)));
        if (taken) throw conflict(firmwareMessages.duplicate(model, version));

        const key = `firmware/${randomBytes(16).toString('hex')}.bin`;
        await storage.putFile(key, received.file, 'application/octet-stream');
        try {
          const row = await app.db.transaction(async (tx) => {
            const [inserted] = await tx
              .insert(firmwareFiles)
              .values({
                model,
                version,
                storageKey: key,
                fileName: received!.name,
                sha256: received!.sha256,
                size: received!.size,
                remark: remark || null,
                createdById: caller.id,
                createdBy: caller.nickname || caller.username,
              })
              .returning();
            await audit(
              request,
              { action: 'upload', resource: 'firmware', resourceId: inserted.id, after: recordOf(inserted) },
              tx,
            );
            return inserted;
          });
          return ok({ id: row.id, version, model, sha256: row.sha256, size: row.size });
        } catch (error) {
          // Nothing half-done stays behind: the stored bytes go with the row that failed.
          await storage.remove(key).catch(() => undefined);
          if (sqlState(error) === '23505') throw conflict(firmwareMessages.duplicate(model, version));
          throw error;
        }
      } catch (error) {
        // Refused while the body still arrives: close the connection rather than read the rest.
        if (error instanceof AppError && error.statusCode === 413) {
          request.raw.unpipe();
          request.raw.pause();
          void reply.header('connection', 'close');
        }
        throw error;
      } finally {
        if (received) await fs.rm(received.file, { force: true });
      }
    },
  );

  app.get(
    doorOperationEndpoints.firmwarePage,
    {
      config: { permission: FIRMWARE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'Firmware files, newest first',
        querystring: firmwarePageQuery,
        response: { 200: envelope(pageOf(firmwareRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL | undefined = q.model ? eq(firmwareFiles.model, q.model) : undefined;
      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select()
            .from(firmwareFiles)
            .where(where)
            .orderBy(desc(firmwareFiles.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(firmwareFiles).where(where),
      );
      return ok({ ...page, records: page.records.map(recordOf) });
    },
  );

  app.get(
    doorOperationEndpoints.firmwareDownload,
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A firmware file, for a device holding a signed link (no session)',
        description: `Only with the \`id\`, \`expires\` and \`sig\` the server sent; valid one hour.`,
        querystring: firmwareDownloadQuery,
      },
    },
    async (request, reply) => {
      const { id, expires, sig } = request.query;
      if (!app.devices.firmware.links.verify(id, expires, sig))
        throw new AppError(403, firmwareMessages.linkInvalid);
      const [row] = await app.db.select().from(firmwareFiles).where(eq(firmwareFiles.id, id));
      const stored = row && (await storage.get(row.storageKey));
      if (!stored) throw notFound(firmwareMessages.firmwareNotFound);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', String(stored.size))
        .header('content-disposition', `attachment; filename="${row.model}-${row.version}.bin"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(stored.stream);
    },
  );
};
