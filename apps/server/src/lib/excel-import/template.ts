/**
 * `GET {base}/import/template`: an .xlsx of the header row alone (an example row would be imported as
 * real data), each header with its example as a note, and a 说明 sheet with the allowed values.
 */
import type { FastifyRequest } from 'fastify';
import {
  IMPORT_HELP_SHEET,
  IMPORT_LIST_SEPARATOR,
  IMPORT_MAX_CELL_CHARS,
  IMPORT_MAX_ROWS,
  type Fields,
} from '@cowork/contract';
import { loadExcelJS } from '../excel-export.ts';
import { isRequired } from './cells.ts';
import { byKey, lookups, type ImportContext, type Values } from './context.ts';

/**
 * The template: the header row alone (an example row would be imported as real data, and a marked
 * one too once a user types over it), each header with its example as a note, and a 说明 sheet
 * with the allowed values and the example.
 */
export async function template<F extends Fields>(
  context: ImportContext<F>,
  request: FastifyRequest,
): Promise<Buffer> {
  const { resource, columns, options } = context;
  const choices = await lookups(context, request);
  const workbook = new (await loadExcelJS()).Workbook();
  const sheet = workbook.addWorksheet(resource.label);
  sheet.columns = columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: Math.max(14, c.header.length * 3),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const sample: Values = {};
  for (const [i, c] of columns.entries()) {
    const derive = byKey(options.sample, c.key);
    sample[c.key] = derive
      ? ((await derive(sample, request)) ?? '')
      : (choices.get(c.key)?.[0]?.label ?? byKey(options.example, c.key) ?? '');
    if (sample[c.key] !== '') sheet.getRow(1).getCell(i + 1).note = `示例：${String(sample[c.key])}`;
  }
  const help = workbook.addWorksheet(IMPORT_HELP_SHEET);
  help.columns = [
    { header: '列名', key: 'header', width: 18 },
    { header: '必填', key: 'required', width: 16 },
    { header: '填写说明', key: 'note', width: 80 },
    { header: '示例', key: 'example', width: 18 },
  ];
  help.getRow(1).font = { bold: true };
  for (const c of columns) {
    const names = choices.get(c.key)?.map((o) => o.label);
    const dataNote = await byKey(options.notes, c.key)?.(request);
    const notes = [
      c.field.kind === 'enum' && `可选值：${c.field.options.map((o) => o.label).join(IMPORT_LIST_SEPARATOR)}`,
      c.field.kind === 'boolean' && '填 是 或 否',
      c.field.kind === 'money' && '单位为元，最多两位小数，如 88.50',
      c.field.kind === 'time' && '时:分，如 09:00',
      c.field.kind === 'references' && `可填多个，用“${IMPORT_LIST_SEPARATOR}”分隔`,
      c.field.kind === 'tags' && `可填多个，用“${IMPORT_LIST_SEPARATOR}”分隔`,
      names && `可选值：${names.join(IMPORT_LIST_SEPARATOR)}`,
      c.field.help,
      dataNote,
    ].filter(Boolean);
    const required = byKey(options.requiredWhen, c.key) ?? (isRequired(c.field) ? '是' : '否');
    help.addRow({ header: c.header, required, example: sample[c.key], note: notes.join('；') });
  }
  help.addRow({});
  help.addRow({
    header: '注意',
    note: `从第 2 行起每行一条数据（模板中没有示例行，示例见本表的“示例”列和表头的批注），一次最多 ${IMPORT_MAX_ROWS} 行，每个单元格不超过 ${IMPORT_MAX_CELL_CHARS} 个字符；请勿修改表头。有任何一行出错时不会导入任何数据。`,
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
