/**
 * What a file really is, from its bytes: the extension a client gives is only a claim. Each
 * accepted extension has a signature (magic bytes) or, for the text formats, a parse: a CSV must be
 * text, an SVG must be well-formed XML with an <svg> root and no active content.
 */
import type { UploadExtension } from '@cowork/contract';

export type ContentVerdict =
  { ok: true; contentType: string } | { ok: false; reason: 'mismatch' | 'svgInvalid' | 'svgActive' };

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const startsWith = (data: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return data.length >= at + expected.length && data.subarray(at, at + expected.length).equals(expected);
};

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** OLE2 compound document: the container of .xls (Excel 97-2003). */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** Text in UTF-8, or in GB18030 (what Chinese Excel writes CSV in); undefined for anything else. */
function decodeText(data: Buffer): { text: string; charset: 'utf-8' | 'gb18030' } | undefined {
  // Control characters other than tab, line feed, form feed and carriage return mean binary.
  for (const byte of data) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) return undefined;
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(data), charset: 'utf-8' };
  } catch {
    // Not UTF-8: try the Chinese national encoding below.
  }
  try {
    return { text: new TextDecoder('gb18030', { fatal: true }).decode(data), charset: 'gb18030' };
  } catch {
    return undefined;
  }
}

/** Checks the bytes against the (already allowed) extension; answers the content type to store. */
export function inspectContent(extension: UploadExtension, data: Buffer): ContentVerdict {
  const mismatch = { ok: false, reason: 'mismatch' } as const;
  const is = (matches: boolean, contentType: string): ContentVerdict =>
    matches ? { ok: true, contentType } : mismatch;
  switch (extension) {
    case 'png':
      return is(startsWith(data, PNG), 'image/png');
    case 'jpg':
    case 'jpeg':
      return is(startsWith(data, JPEG), 'image/jpeg');
    case 'gif':
      return is(startsWith(data, 'GIF87a') || startsWith(data, 'GIF89a'), 'image/gif');
    case 'webp':
      return is(startsWith(data, 'RIFF') && startsWith(data, 'WEBP', 8), 'image/webp');
    case 'pdf':
      // Readers accept the header anywhere in the first kilobyte.
      return is(data.subarray(0, 1024).includes('%PDF-'), 'application/pdf');
    case 'xlsx':
      // A ZIP package whose parts include the workbook (a .docx is a ZIP too).
      return is(startsWith(data, ZIP) && data.includes('xl/workbook'), XLSX_TYPE);
    case 'xls':
      return is(startsWith(data, OLE2), 'application/vnd.ms-excel');
    case 'csv': {
      const decoded = decodeText(data);
      return decoded ? { ok: true, contentType: `text/csv; charset=${decoded.charset}` } : mismatch;
    }
    case 'svg': {
      const body = startsWith(data, [0xef, 0xbb, 0xbf]) ? data.subarray(3) : data;
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(body);
      } catch {
        return mismatch;
      }
      const verdict = inspectSvg(text);
      if (verdict === 'ok') return { ok: true, contentType: 'image/svg+xml' };
      return { ok: false, reason: verdict === 'active' ? 'svgActive' : 'svgInvalid' };
    }
  }
}

// ---- SVG: a small well-formedness check, enough to know what a browser would render. ----

const NAME = /[A-Za-z_:][\w:.-]*/y;
const SPACE = /[ \t\r\n]*/y;
const ENTITY = /&(?:#\d+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);/y;

/** Elements that run script or embed a document; refused wherever they appear. */
const ACTIVE_ELEMENTS = new Set([
  'script',
  'foreignobject',
  'iframe',
  'embed',
  'object',
  'handler',
  'listener',
]);

const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

/** Character references resolved, so `&#106;avascript:` reads as what it is. */
const fromCodePoint = (n: number) => (n <= 0x10ffff ? String.fromCodePoint(n) : '');
const resolveReferences = (value: string) =>
  value
    .replace(/&#x([0-9a-fA-F]+);/g, (_, hex: string) => fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => fromCodePoint(Number(dec)))
    .replace(
      /&(amp|lt|gt|quot|apos);/g,
      (_, n: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[n]!,
    );

/** Whether every `&` of a text or attribute value starts a reference XML knows without a DTD. */
function referencesValid(text: string): boolean {
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    ENTITY.lastIndex = i;
    if (!ENTITY.test(text)) return false;
  }
  return true;
}

/**
 * `ok` for a well-formed document whose one root element is <svg>; `active` when it holds script,
 * event-handler attributes, embedded documents or `javascript:` addresses; `invalid` otherwise
 * (including any DOCTYPE with an internal subset, where entity tricks live).
 */
export function inspectSvg(text: string): 'ok' | 'invalid' | 'active' {
  const stack: string[] = [];
  let sawRoot = false;
  let active = false;
  let pos = 0;

  const readName = (): string | undefined => {
    NAME.lastIndex = pos;
    const match = NAME.exec(text);
    if (!match) return undefined;
    pos = NAME.lastIndex;
    return match[0];
  };
  const skipSpace = () => {
    SPACE.lastIndex = pos;
    SPACE.exec(text);
    const skipped = SPACE.lastIndex > pos;
    pos = SPACE.lastIndex;
    return skipped;
  };
  const skipPast = (end: string) => {
    const at = text.indexOf(end, pos);
    if (at === -1) return false;
    pos = at + end.length;
    return true;
  };

  while (pos < text.length) {
    if (text[pos] !== '<') {
      const next = text.indexOf('<', pos);
      const chunk = text.slice(pos, next === -1 ? text.length : next);
      if (stack.length === 0 && chunk.trim() !== '') return 'invalid';
      if (!referencesValid(chunk)) return 'invalid';
      pos = next === -1 ? text.length : next;
      continue;
    }
    if (text.startsWith('<?', pos)) {
      if (!skipPast('?>')) return 'invalid';
    } else if (text.startsWith('<!--', pos)) {
      if (!skipPast('-->')) return 'invalid';
    } else if (text.startsWith('<![CDATA[', pos)) {
      if (stack.length === 0 || !skipPast(']]>')) return 'invalid';
    } else if (text.startsWith('<!DOCTYPE', pos)) {
      if (sawRoot) return 'invalid';
      // A public or system identifier is fine; an internal subset ([…]) may declare entities.
      let quote: string | undefined;
      let end = -1;
      for (let i = pos + 9; i < text.length; i++) {
        const c = text[i];
        if (quote) {
          if (c === quote) quote = undefined;
        } else if (c === '"' || c === "'") quote = c;
        else if (c === '[') return 'invalid';
        else if (c === '>') {
          end = i;
          break;
        }
      }
      if (end === -1) return 'invalid';
      pos = end + 1;
    } else if (text.startsWith('</', pos)) {
      pos += 2;
      const name = readName();
      skipSpace();
      if (!name || text[pos] !== '>' || stack.pop() !== name) return 'invalid';
      pos += 1;
    } else {
      pos += 1;
      const name = readName();
      if (!name) return 'invalid';
      if (stack.length === 0) {
        if (sawRoot || name.slice(name.indexOf(':') + 1) !== 'svg') return 'invalid';
        sawRoot = true;
      }
      if (ACTIVE_ELEMENTS.has(localName(name))) active = true;
      const seen = new Set<string>();
      for (;;) {
        const spaced = skipSpace();
        if (text.startsWith('/>', pos)) {
          pos += 2;
          break;
        }
        if (text[pos] === '>') {
          pos += 1;
          stack.push(name);
          break;
        }
        if (!spaced) return 'invalid';
        const attribute = readName();
        if (!attribute || seen.has(attribute)) return 'invalid';
        seen.add(attribute);
        skipSpace();
        if (text[pos] !== '=') return 'invalid';
        pos += 1;
        skipSpace();
        const quote = text[pos];
        if (quote !== '"' && quote !== "'") return 'invalid';
        const close = text.indexOf(quote, pos + 1);
        if (close === -1) return 'invalid';
        const value = text.slice(pos + 1, close);
        if (value.includes('<') || !referencesValid(value)) return 'invalid';
        pos = close + 1;
        if (localName(attribute).startsWith('on')) active = true;
        // Whitespace and control characters are ignored by URL parsers: `java\tscript:` still runs.
        const plain = [...resolveReferences(value)]
          .filter((c) => c.codePointAt(0)! > 0x20)
          .join('')
          .toLowerCase();
        if (/(?:java|vb)script:|data:text\/html/.test(plain)) active = true;
      }
    }
  }
  if (!sawRoot || stack.length > 0) return 'invalid';
  return active ? 'active' : 'ok';
}
