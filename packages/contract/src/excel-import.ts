/**
 * Excel import of any resource (apps/server/src/lib/excel-import.ts): the endpoints, the limits and
 * the answer. A file is taken whole or not at all; a refused one answers every bad row.
 */
import { z } from 'zod';
import { quoted } from './messages.ts';
import type { ResourceDef } from './resource.ts';

export const importPaths = (def: Pick<ResourceDef, 'base'>) => ({
  /** POST multipart, field `file` (.xlsx). */
  excel: `${def.base}/import/excel`,
  /** GET: the .xlsx template (the header row, each column's example in its note, and a 说明 sheet). */
  template: `${def.base}/import/template`,
});

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
/**
 * What an upload may unpack to, counted while inflating (never from the sizes the ZIP declares): a
 * real 5 000-row template is a few MB of XML; a few hundred KB can otherwise inflate to gigabytes.
 */
export const IMPORT_MAX_UNPACKED_BYTES = 32 * 1024 * 1024;
/** Characters in one cell: what the longest field (a textarea) holds; a longer cell refuses the file. */
export const IMPORT_MAX_CELL_CHARS = 2000;
/** The name of the template's sheet listing the allowed values. */
export const IMPORT_HELP_SHEET = '说明';
/** Separator of list cells (several references or tags in one cell). */
export const IMPORT_LIST_SEPARATOR = '、';

/** One problem of one row: `row` as Excel numbers it (the header is row 1). */
const importRowError = z.object({ row: z.number().int(), column: z.string(), message: z.string() });
export type ImportRowError = z.infer<typeof importRowError>;

/**
 * Answer of a successful import; `skippedRows`: rows left out because they are the template's
 * example (a template downloaded before the example left the sheet still holds it).
 */
export const importResult = z.object({
  imported: z.number().int(),
  skippedRows: z.array(z.number().int()).optional(),
});
export type ImportResult = z.infer<typeof importResult>;
/** `data` of a refused import (400): every bad row. */
export const importRejection = z.object({ errors: z.array(importRowError) });
export type ImportRejection = z.infer<typeof importRejection>;

export const importMessages = {
  fileRequired: '文件：请选择要导入的 Excel 文件（.xlsx）',
  notXlsx: '文件：只能导入 .xlsx 格式的 Excel 文件，请用模板填写后另存为 .xlsx 再导入',
  tooLarge: `文件：不能超过 ${IMPORT_MAX_BYTES / 1024 / 1024} MB，请拆分后分批导入`,
  tooManyRows: `文件：一次最多导入 ${IMPORT_MAX_ROWS} 行，请拆分后分批导入`,
  tooLargeUnpacked: `文件：解压后的内容超过 ${IMPORT_MAX_UNPACKED_BYTES / 1024 / 1024} MB，请删除多余的工作表、图片和格式，或拆分后分批导入`,
  cellTooLong: `文件：有单元格的内容超过 ${IMPORT_MAX_CELL_CHARS} 个字符，请检查是否误粘贴了大段内容，改短后重新导入`,
  empty: '文件：没有可导入的数据行，请在模板的第 2 行起填写数据',
  onlyExample: '文件：只有模板的示例行，示例不会导入；请从第 2 行起填写要导入的数据后重新导入',
  unreadable: '文件：无法读取该 Excel 文件，请用下载的模板重新填写后导入',
  missingColumn: (label: string) => `文件：缺少“${label}”列，请使用下载的模板，不要删改表头`,
  imported: (n: number, skippedRows: number[] = []) =>
    `已导入 ${n} 条数据${skippedRows.length ? `；第 ${skippedRows.join('、')} 行是模板的示例，未导入` : ''}`,
  rejected: (rows: number) => `有 ${rows} 行数据有误，未导入任何数据；请按错误报告修改后重新导入`,
  duplicateInFile: (label: string, row: number) => `${label}与第 ${row} 行重复，请删除其中一行后重新导入`,
  /**
   * `where`: the scope the value is unique in (本门禁组, 「楼宇名」), none when unique everywhere;
   * `other`: the other way out when two records may differ only in this value (a seat's code).
   */
  duplicateInDb: (label: string, value: string, where?: string, other = false) =>
    `${label} ${value} 已${where ? `在${where}中` : '存在'}，请删除这一行后重新导入${other ? `；若是另一条数据，请改用其他${label}` : ''}`,
  unknownOption: (label: string, allowed: string[]) => `${label}只能是 ${allowed.join('、')}`,
  unknownReference: (label: string, name: string) => `找不到名为${quoted(name)}的${label}，请检查名称`,
  ambiguousReference: (label: string, name: string) => `名为${quoted(name)}的${label}不止一个，请先改名区分`,
  notNumber: (label: string) => `${label}须是数字`,
  notBoolean: (label: string) => `${label}只能填 是 或 否`,
} as const;
