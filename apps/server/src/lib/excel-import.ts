/**
 * Excel import of any resource declared in the contract: `GET {base}/import/template` answers an
 * .xlsx whose columns are the form fields under their Chinese labels (money in yuan, enumerations
 * by their labels, references by the referenced record's name, lists separated by 、) and no data
 * row: each column's example is in its header's note and on the 说明 sheet, never in a row that
 * could be imported. `POST {base}/import/excel` (multipart field `file`) reads a filled one. A row
 * equal to the example (a template downloaded before the example left the sheet) is skipped, and
 * the answer says so. Every other row goes through
 * the create schema, the module's own `prepare` and the unique checks (inside the file and against
 * the database); one bad row and nothing is written, the answer listing every bad row. Otherwise
 * all rows are inserted in one transaction, each audited.
 *
 * The pieces are under excel-import/: the cells and columns (cells.ts), what the routes share
 * (context.ts), the template (template.ts), reading the file (read-file.ts) and the import (rows.ts).
 *
 * @example
 *   const options = { resource: officeSeat, table: officeSeats, prepare };
 *   app.register(crudModule(options));
 *   app.register(excelImportRoutes({ ...options, example: { code: 'A区-01', … } }));
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_ROWS,
  IMPORT_MAX_UNPACKED_BYTES,
  importMessages,
  importRejection,
  importResult,
  type Fields,
} from '@cowork/contract';
import type { ResourceTable } from './crud.ts';
import { XLSX_TYPE } from './excel-export.ts';
import { importContext, type ExcelImportOptions } from './excel-import/context.ts';
import { receive } from './excel-import/read-file.ts';
import { ImportRejected, importFile } from './excel-import/rows.ts';
import { template } from './excel-import/template.ts';
import { envelope, errorEnvelope, ok } from './http.ts';

export { importColumns, type ImportColumn } from './excel-import/cells.ts';
export type { ExcelImportOptions } from './excel-import/context.ts';

export function excelImportRoutes<F extends Fields, T extends ResourceTable>(
  options: ExcelImportOptions<F, T>,
): FastifyPluginAsyncZod {
  const context = importContext(options);
  const { resource, paths, permissions, tags } = context;

  return async (app) => {
    // Registered in this plugin's own context, so only the import route parses multipart bodies.
    await app.register(multipart, { limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

    app.get(
      paths.template,
      {
        config: { permission: permissions.edit },
        schema: { tags, summary: `下载${resource.label}导入模板（.xlsx）` },
      },
      async (request, reply) => {
        const file = await template(context, request);
        const name = encodeURIComponent(`${resource.label}导入模板.xlsx`);
        return reply
          .header('content-type', XLSX_TYPE)
          .header(
            'content-disposition',
            `attachment; filename="${resource.key}-template.xlsx"; filename*=UTF-8''${name}`,
          )
          .send(file);
      },
    );

    app.post(
      paths.excel,
      {
        config: { permission: permissions.edit },
        schema: {
          tags,
          summary: `从 Excel 导入${resource.label}（multipart 字段 file，.xlsx）`,
          description:
            `At most ${IMPORT_MAX_BYTES / 1024 / 1024} MB (${IMPORT_MAX_UNPACKED_BYTES / 1024 / 1024} MB unpacked), ` +
            `${IMPORT_MAX_ROWS} rows and ${IMPORT_MAX_CELL_CHARS} characters a cell. All rows or none: a refused ` +
            'file answers 400 with every bad row (row number as in Excel, column, message) in data.errors.',
          consumes: ['multipart/form-data'],
          response: { 200: envelope(importResult), 400: z.union([envelope(importRejection), errorEnvelope]) },
        },
      },
      async (request, reply) => {
        const data = await receive(request);
        try {
          const { imported, skippedRows } = await importFile(context, request, data);
          options.afterImport?.(request);
          return ok(
            { imported, ...(skippedRows.length > 0 ? { skippedRows } : {}) },
            importMessages.imported(imported, skippedRows),
          );
        } catch (error) {
          if (!(error instanceof ImportRejected)) throw error;
          const rows = new Set(error.errors.map((e) => e.row)).size;
          return reply
            .code(400)
            .send({ code: 400, msg: importMessages.rejected(rows), data: { errors: error.errors } });
        }
      },
    );
  };
}
