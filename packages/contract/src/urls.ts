/**
 * Which addresses a stored URL field may hold. Image and file fields (logos, covers, avatars,
 * invoice PDFs) keep only files this system serves — uploads, menu icons and the demo's samples —
 * as root-relative paths; a field that is meant to link elsewhere (a banner's 跳转链接) takes
 * http(s) too, and has its own pattern. `javascript:`, `data:`, `//host/…` and any other host are
 * refused, so nothing saved can run script or pull content from elsewhere into the console.
 */
import { z } from 'zod';
import { MENU_ICON_BASE } from './constants.ts';
import { UPLOAD_FILE_BASE } from './upload.ts';

/** The folders whose files the server itself serves. */
const OWN_FILE_PREFIXES = [`${UPLOAD_FILE_BASE}/`, `${MENU_ICON_BASE}/`, '/demo/'] as const;

/** A path to a file we serve: one of our folders, plain path characters, no `..` or `//`. */
export const isOwnFileUrl = (url: string): boolean =>
  OWN_FILE_PREFIXES.some((prefix) => url.startsWith(prefix)) &&
  /^[A-Za-z0-9/._-]+$/.test(url) &&
  !url.includes('..') &&
  !url.includes('//');

const ownFileMessage = '请通过上传按钮上传，只能使用本系统上传的文件地址';

/** A stored file address (500 characters at most), refused unless it is one of ours. */
export const ownFileUrl = (label: string) =>
  z
    .string({ error: `请上传${label}` })
    .trim()
    .max(500, `${label}地址最多 500 个字符，请重新上传`)
    .refine(isOwnFileUrl, ownFileMessage);
