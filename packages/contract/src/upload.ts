/**
 * File uploads (every image and file field): the oss endpoints, where stored files are served, the
 * extensions and size the server accepts, and the upload messages beyond those in messages.ts.
 * Plain constants, free of zod, so the console's Upload control imports them without the schema
 * library. The web checks a chosen file with `checkUpload` (checks.ts) before sending; the server
 * checks it again, and also checks the content itself.
 */
import { prefixes } from './endpoints.ts';

export const uploadEndpoints = {
  /** POST multipart: one or more files in field `file`; optional fields `accept` and `maxSizeKb`. */
  upload: `${prefixes.basic}/oss/upload`,
  /** DELETE with body `{url}` or query `url`. */
  remove: `${prefixes.basic}/oss`,
} as const;

/** Stored files are served (publicly, as an image host does) at `${UPLOAD_FILE_BASE}/{key}`. */
export const UPLOAD_FILE_BASE = '/file/uploads';

/** Largest file the server accepts, in KB (10 MB). A request may only lower it (`maxSizeKb`). */
export const UPLOAD_MAX_SIZE_KB = 10 * 1024;
/** Most files one upload request may carry. */
export const UPLOAD_MAX_FILES = 10;

/** Extensions the server accepts, by kind (lower case, without dot). */
const uploadExtensions = {
  image: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'],
  document: ['pdf'],
  spreadsheet: ['xlsx', 'xls', 'csv'],
} as const satisfies Record<string, readonly string[]>;

export type UploadExtension = (typeof uploadExtensions)[keyof typeof uploadExtensions][number];

/** Every extension the server accepts. A request may only narrow it (`accept`). */
export const UPLOAD_EXTENSIONS: readonly UploadExtension[] = [
  ...uploadExtensions.image,
  ...uploadExtensions.document,
  ...uploadExtensions.spreadsheet,
];

export const IMAGE_EXTENSIONS: readonly string[] = uploadExtensions.image;

/** Permission code that lets a user remove files others uploaded (anyone may remove their own). */
export const UPLOAD_REMOVE_PERMISSION = 'system:oss:remove';

/** What an upload answers for each file (an array when the request carried several). */
export interface UploadedFileInfo {
  /** Where the file is served, e.g. `/file/uploads/20250101/3f2a…9c.png`. */
  url: string;
  /** Storage key: date folder (business day), 32 random hex digits and the checked extension. */
  key: string;
  /** The name the file had on the uploader's computer (recorded, never used to store it). */
  name: string;
  /** Size in bytes. */
  size: number;
  /** Content type found from the content itself. */
  contentType: string;
}

/** Upload messages the server sends (the web shows them as they come). Meaning in English beside each. */
export const uploadMessages = {
  /** the request is not a multipart form */
  notMultipart: '文件：请以 multipart/form-data 表单上传，文件放在 file 字段中',
  /** the form has no file */
  fileRequired: '文件：请选择要上传的文件',
  /** a file came in another field than `file` */
  wrongField: '文件：请把文件放在 file 字段中上传',
  /** too many files in one request */
  tooManyFiles: `文件：一次最多上传 ${UPLOAD_MAX_FILES} 个文件，请分批上传`,
  // The four below follow 文件「name」： (the server names the file once, in front).
  /** the file is empty */
  empty: '内容为空，请重新选择',
  /** the content does not match the extension (a .png that is no PNG); {ext} is filled in */
  contentMismatch: '内容与扩展名 .{ext} 不符，请上传真实的 {ext} 文件',
  /** an SVG that does not parse */
  svgInvalid: '不是有效的 SVG 图片，请重新导出后上传',
  /** an SVG with scripts, event attributes or embedded HTML */
  svgActive: '含有脚本或事件属性，请导出为不含脚本的 SVG 后上传',
  /** the form broke off or could not be read */
  badForm: '文件：上传内容不完整，请重新上传',
  /** the `accept` field names no extension the server accepts */
  acceptInvalid: `允许的格式（accept）：请填写以逗号分隔的扩展名，可选 ${UPLOAD_EXTENSIONS.join('、')}`,
  /** the `maxSizeKb` field is not a positive whole number */
  maxSizeInvalid: '大小上限（maxSizeKb）：请填写大于 0 的整数（单位 KB）',
  /** the remove call names no file */
  urlRequired: '文件地址（url）：请填写要删除的文件地址',
  /** the remove call names a file that does not exist */
  fileNotFound: '文件不存在或已被删除，请刷新后重试',
  /** a private file (a PDF, a spreadsheet) opened without signing in */
  privateSignIn: '该文件只对已登录的员工开放，请先登录控制台，再从所在页面打开',
  /** a private file opened by staff who may not see the record holding it */
  privateForbidden: '您无权查看该文件：它属于您没有查看权限的记录，如需查看请联系管理员分配权限',
} as const;

/** The serving address of a storage key. */
export const uploadUrl = (key: string) => `${UPLOAD_FILE_BASE}/${key}`;
