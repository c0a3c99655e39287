/**
 * File uploads: oss/upload, oss remove and the public file host at /file/uploads/{key}. Files go to
 * a temporary data directory; multipart bodies are built by hand.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  messages,
  UPLOAD_FILE_BASE,
  UPLOAD_MAX_SIZE_KB,
  uploadEndpoints,
  uploadMessages,
  type UploadedFileInfo,
} from '@cowork/contract';
import { auditLogs, invoices, uploadedFiles } from '../src/db/schema.ts';
import { inspectContent, inspectSvg } from '../src/modules/oss/content.ts';
import { localDiskStorage } from '../src/modules/oss/storage.ts';
import { buildTestApp, createRole, createUser, demo, userIdOf, type TestApp } from './helper.ts';

let t: TestApp;
let dataDir: string;
let yunying: { authorization: string };
let caiwu: { authorization: string };
let admin: { authorization: string };

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-oss-'));
  t = await buildTestApp({ config: { dataDir } });
  yunying = await t.auth(...demo.yunying);
  caiwu = await t.auth(...demo.caiwu);
  admin = await t.auth(...demo.admin);
});
afterAll(async () => {
  await t?.close();
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
});

// ---- Fixtures: small files whose bytes are what their extension says (or not). ----

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x20, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  randomBytes(24),
]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const XLSX = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  Buffer.from('\0\0[Content_Types].xml..xl/workbook.xml..'),
]);
const XLS = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), randomBytes(64)]);
const CSV = Buffer.from('名称,编码\n官网,website\n');
const SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n' +
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><style>rect{fill:#1677ff}</style>' +
    '<rect width="10" height="10"/><text x="1" y="8">A &amp; B</text></svg>\n',
);

type Part =
  { name: string; value: string } | { name: string; filename: string; content: Buffer; type?: string };

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: Part[]) {
  const boundary = `----cowork${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
      );
    } else {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}`));
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const file = (filename: string, content: Buffer): Part => ({ name: 'file', filename, content });

async function upload(headers: Record<string, string>, parts: Part[]) {
  const body = multipart(parts);
  const res = await t.app.inject({
    method: 'POST',
    url: uploadEndpoints.upload,
    headers: { ...headers, ...body.headers },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json<{ code: number; msg: string; data: unknown }>() };
}

/** Uploads files that must be accepted; answers what the server says about each. */
async function uploaded(headers: Record<string, string>, ...parts: Part[]): Promise<UploadedFileInfo[]> {
  const res = await upload(headers, parts);
  expect(res.status, res.body.msg).toBe(200);
  return Array.isArray(res.body.data)
    ? (res.body.data as UploadedFileInfo[])
    : [res.body.data as UploadedFileInfo];
}

const serve = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

const remove = (headers: Record<string, string>, url: string, via: 'body' | 'query' = 'body') =>
  t.app.inject({
    method: 'DELETE',
    url: uploadEndpoints.remove,
    headers,
    ...(via === 'body' ? { payload: { url } } : { query: { url } }),
  });

const rowCount = async () => (await t.db.select({ id: uploadedFiles.id }).from(uploadedFiles)).length;

async function storedFileCount(): Promise<number> {
  try {
    const entries = await fs.readdir(path.join(dataDir, 'uploads'), { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).length;
  } catch {
    return 0;
  }
}

/** Runs a refused upload and checks that nothing at all was stored. */
async function refused(headers: Record<string, string>, parts: Part[]) {
  const [rows, files] = [await rowCount(), await storedFileCount()];
  const res = await upload(headers, parts);
  expect(await rowCount()).toBe(rows);
  expect(await storedFileCount()).toBe(files);
  return res;
}

const KEY = /^\d{8}\/[0-9a-f]{32}\.[a-z]+$/;

describe('upload', () => {
  test('one file: stored under a generated key, recorded, audited, answered as an object', async () => {
    const res = await upload(yunying, [file('C:\\Users\\me\\门店 logo.PNG', PNG)]);
    expect(res.status).toBe(200);
    const info = res.body.data as UploadedFileInfo;
    expect(info).toEqual({
      url: `${UPLOAD_FILE_BASE}/${info.key}`,
      key: expect.stringMatching(KEY),
      name: '门店 logo.PNG',
      size: PNG.length,
      contentType: 'image/png',
    });
    // The extension is the checked one, lower-cased; nothing of the client's name or path is used.
    expect(info.key.endsWith('.png')).toBe(true);
    expect(info.key).not.toContain('logo');
    expect(await fs.readFile(path.join(dataDir, 'uploads', ...info.key.split('/')))).toEqual(PNG);

    const [row] = await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.key, info.key));
    expect(row).toMatchObject({
      originalName: '门店 logo.PNG',
      contentType: 'image/png',
      sizeBytes: PNG.length,
      sha256: (await import('node:crypto')).createHash('sha256').update(PNG).digest('hex'),
      uploadedBy: await userIdOf(t.db, 'yunying'),
    });
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.resource, 'oss'), eq(auditLogs.resourceId, info.key)));
    expect(entry).toMatchObject({ action: 'upload', actorId: await userIdOf(t.db, 'yunying') });
    expect(entry.after).toMatchObject({
      key: info.key,
      originalName: '门店 logo.PNG',
      sizeBytes: PNG.length,
    });
  });

  test('several files: an array in the order sent, each checked and stored', async () => {
    const res = await upload(admin, [
      file('a.jpg', JPEG),
      file('b.gif', GIF),
      file('c.webp', WEBP),
      file('合同.pdf', PDF),
      file('d.xlsx', XLSX),
      file('e.xls', XLS),
      file('来源.csv', CSV),
      file('f.svg', SVG),
    ]);
    expect(res.status, res.body.msg).toBe(200);
    const infos = res.body.data as UploadedFileInfo[];
    expect(infos.map((i) => [i.name, i.contentType])).toEqual([
      ['a.jpg', 'image/jpeg'],
      ['b.gif', 'image/gif'],
      ['c.webp', 'image/webp'],
      ['合同.pdf', 'application/pdf'],
      ['d.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
      ['e.xls', 'application/vnd.ms-excel'],
      ['来源.csv', 'text/csv; charset=utf-8'],
      ['f.svg', 'image/svg+xml'],
    ]);
    expect(new Set(infos.map((i) => i.key)).size).toBe(8);
    for (const info of infos) expect(info.key).toMatch(KEY);
  });

  test('served back byte-identical, publicly, long-cached and nosniff', async () => {
    const [png] = await uploaded(yunying, file('x.png', PNG));
    const res = await serve(png.url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(PNG);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(PNG.length));
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toMatch(/^inline; /);
    // Unchanged content is not sent again.
    const again = await serve(png.url, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const [big] = await uploaded(
      yunying,
      file('big.pdf', Buffer.concat([PDF, randomBytes(3 * 1024 * 1024)])),
    );
    const served = await serve(big.url, yunying);
    expect(served.rawPayload.length).toBe(big.size);
    expect(served.headers['content-type']).toBe('application/pdf');
  });

  test('an SVG is served as a download under a policy that runs no script', async () => {
    const [svg] = await uploaded(yunying, file('图标.svg', SVG));
    const res = await serve(svg.url);
    expect(res.rawPayload).toEqual(SVG);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${svg.key.split('/')[1]}"; filename*=UTF-8''${encodeURIComponent('图标.svg')}`,
    );
  });

  test('a wrong extension: 400 naming the file and the formats to use', async () => {
    const res = await refused(yunying, [file('tool.exe', Buffer.from('MZ...'))]);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.msg).toBe(
      `文件「tool.exe」：${messages.uploadBadType}png、jpg、jpeg、gif、webp、svg、pdf、xlsx、xls、csv`,
    );
    expect((await refused(yunying, [file('no-extension', PNG)])).status).toBe(400);
    expect((await refused(yunying, [file('page.html', Buffer.from('<html></html>'))])).status).toBe(400);
  });

  test('content that is not what the extension says: 400, and nothing of the request is stored', async () => {
    const res = await refused(yunying, [file('fake.png', Buffer.from('this is only text'))]);
    expect(res.status).toBe(400);
    // Every placeholder filled, the file named once (a raw {name} showed here before).
    expect(res.body.msg).toBe('文件「fake.png」：内容与扩展名 .png 不符，请上传真实的 png 文件');
    // One bad file refuses the whole request, the good ones included.
    const mixed = await refused(yunying, [file('good.png', PNG), file('photo.jpg', PNG)]);
    expect(mixed.status).toBe(400);
    expect(mixed.body.msg).toContain('photo.jpg');
    for (const [name, content] of [
      ['a.pdf', PNG],
      ['a.gif', JPEG],
      ['a.webp', Buffer.from('RIFF0000AVI ')],
      ['a.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('word/document.xml')])],
      ['a.xls', PDF],
      ['a.csv', PNG],
      ['a.svg', PNG],
    ] as const) {
      expect((await refused(yunying, [file(name, content)])).status, name).toBe(400);
    }
    expect((await refused(yunying, [file('empty.png', Buffer.alloc(0))])).body.msg).toBe(
      '文件「empty.png」：内容为空，请重新选择',
    );
  });

  test('an SVG must be XML with an <svg> root and without script', async () => {
    const cases: [string, string][] = [
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', uploadMessages.svgActive],
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', uploadMessages.svgActive],
      ['<svg><a href="java&#x09;script:alert(1)"><text>x</text></a></svg>', uploadMessages.svgActive],
      ['<svg><foreignObject><p>html</p></foreignObject></svg>', uploadMessages.svgActive],
      ['<html><body>not an svg</body></html>', uploadMessages.svgInvalid],
      ['<svg><rect></svg>', uploadMessages.svgInvalid],
      ['just text', uploadMessages.svgInvalid],
      ['<!DOCTYPE svg [<!ENTITY x "y">]><svg>&x;</svg>', uploadMessages.svgInvalid],
    ];
    for (const [text, expected] of cases) {
      const res = await refused(yunying, [file('x.svg', Buffer.from(text))]);
      expect(res.status, text).toBe(400);
      expect(res.body.msg, text).toBe(`文件「x.svg」：${expected}`);
      expect(res.body.msg, text).not.toMatch(/[{}]/);
    }
  });

  test('too large: 413; maxSizeKb may lower the limit but never raise it', async () => {
    const overServer = Buffer.concat([PNG, Buffer.alloc(UPLOAD_MAX_SIZE_KB * 1024 + 1 - PNG.length)]);
    const res = await refused(yunying, [
      { name: 'maxSizeKb', value: String(UPLOAD_MAX_SIZE_KB * 4) },
      file('huge.png', overServer),
    ]);
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      code: 413,
      msg: `文件「huge.png」：${messages.uploadTooLarge.replace('{max}', String(UPLOAD_MAX_SIZE_KB))}`,
      data: null,
    });

    const twoKb = Buffer.concat([PNG, Buffer.alloc(2048)]);
    // The field may come after the file: the limit still applies.
    const narrowed = await refused(yunying, [file('small.png', twoKb), { name: 'maxSizeKb', value: '1' }]);
    expect(narrowed.status).toBe(413);
    expect(narrowed.body.msg).toBe(`文件「small.png」：${messages.uploadTooLarge.replace('{max}', '1')}`);
    expect(
      (await upload(yunying, [{ name: 'maxSizeKb', value: '3' }, file('small.png', twoKb)])).status,
    ).toBe(200);

    for (const value of ['0', '-1', '1.5', 'abc']) {
      const bad = await refused(yunying, [{ name: 'maxSizeKb', value }, file('a.png', PNG)]);
      expect(bad.status, value).toBe(400);
      expect(bad.body.msg).toBe(uploadMessages.maxSizeInvalid);
    }
  });

  test('accept narrows the allowed extensions and cannot widen them', async () => {
    const pdfOnly = await refused(yunying, [{ name: 'accept', value: '.pdf' }, file('a.png', PNG)]);
    expect(pdfOnly.status).toBe(400);
    expect(pdfOnly.body.msg).toBe(`文件「a.png」：${messages.uploadBadType}pdf`);
    expect((await upload(yunying, [{ name: 'accept', value: 'png, JPG' }, file('a.png', PNG)])).status).toBe(
      200,
    );
    const widened = await refused(yunying, [{ name: 'accept', value: 'png,exe' }, file('a.exe', PNG)]);
    expect(widened.status).toBe(400);
    expect(widened.body.msg).toContain(`${messages.uploadBadType}png`);
    const none = await refused(yunying, [{ name: 'accept', value: 'exe' }, file('a.png', PNG)]);
    expect(none.body.msg).toBe(uploadMessages.acceptInvalid);
  });

  test('a form without a file, or not a form: 400 saying what to send', async () => {
    expect((await refused(yunying, [{ name: 'accept', value: 'png' }])).body.msg).toBe(
      uploadMessages.fileRequired,
    );
    expect((await refused(yunying, [{ name: 'upload', filename: 'a.png', content: PNG }])).body.msg).toBe(
      uploadMessages.wrongField,
    );
    const json = await t.app.inject({
      method: 'POST',
      url: uploadEndpoints.upload,
      headers: yunying,
      payload: {},
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().msg).toBe(uploadMessages.notMultipart);
    const many = await refused(
      yunying,
      Array.from({ length: 11 }, (_, i) => file(`${i}.png`, PNG)),
    );
    expect(many.status).toBe(400);
    expect(many.body.msg).toBe(uploadMessages.tooManyFiles);
  });

  test('without a token: 401, nothing stored', async () => {
    const res = await refused({}, [file('a.png', PNG)]);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, msg: messages.unauthorized, data: null });
  });
});

describe('remove', () => {
  test('one removes their own file (by body or query): gone from disk, table and host, audited', async () => {
    const [a, b] = await uploaded(caiwu, file('a.png', PNG), file('b.pdf', PDF));
    const res = await remove(caiwu, a.url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 200, msg: messages.ok, data: null });
    expect((await serve(a.url)).statusCode).toBe(404);
    await expect(fs.stat(path.join(dataDir, 'uploads', ...a.key.split('/')))).rejects.toThrow();
    expect(await t.db.select().from(uploadedFiles).where(eq(uploadedFiles.key, a.key))).toEqual([]);
    const [entry] = await t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'remove'), eq(auditLogs.resourceId, a.key)));
    expect(entry).toMatchObject({ resource: 'oss', actorId: await userIdOf(t.db, 'caiwu') });
    expect(entry.before).toMatchObject({ key: a.key, originalName: 'a.png' });

    // The query form, with an absolute address as the console may hold it.
    expect((await remove(caiwu, `http://localhost:3000${b.url}`, 'query')).statusCode).toBe(200);
    expect((await serve(b.url)).statusCode).toBe(404);
    // Removing again: 404.
    expect((await remove(caiwu, b.url)).statusCode).toBe(404);
  });

  test("another user's file: 403 without system:oss:remove, allowed with it (超级管理员's *)", async () => {
    const [mine] = await uploaded(yunying, file('mine.png', PNG));
    const res = await remove(caiwu, mine.url);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ code: 403, msg: messages.noPermission, data: null });
    expect((await serve(mine.url)).statusCode).toBe(200);

    await createUser(t.db, { username: 'norole', password: 'Norole@123' });
    expect((await remove(await t.auth('norole', 'Norole@123'), mine.url)).statusCode).toBe(403);

    expect((await remove(admin, mine.key)).statusCode).toBe(200);
    expect((await serve(mine.url)).statusCode).toBe(404);
  });

  test('unknown files: 404; no address: 400; no token: 401', async () => {
    for (const url of [
      `${UPLOAD_FILE_BASE}/20250101/0123456789abcdef0123456789abcdef.png`,
      '/file/uploads/../../package.json',
      '../../../etc/passwd',
      'https://example.com/x.png',
      '%E0%A4%A',
    ]) {
      const res = await remove(admin, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().msg).toBe(uploadMessages.fileNotFound);
    }
    const empty = await remove(admin, '  ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe(uploadMessages.urlRequired);
    expect(
      (await t.app.inject({ method: 'DELETE', url: uploadEndpoints.remove, headers: admin })).json().msg,
    ).toBe(uploadMessages.urlRequired);
    expect(
      (await remove({}, `${UPLOAD_FILE_BASE}/20250101/0123456789abcdef0123456789abcdef.png`)).statusCode,
    ).toBe(401);
  });
});

describe('file host', () => {
  test('unknown keys and path traversal: 404, never a file from elsewhere', async () => {
    // A file inside the uploads folder that no upload recorded, and one beside it.
    await fs.mkdir(path.join(dataDir, 'uploads', '20250101'), { recursive: true });
    await fs.writeFile(
      path.join(dataDir, 'uploads', '20250101', '00000000000000000000000000000000.png'),
      PNG,
    );
    await fs.writeFile(path.join(dataDir, 'secret.txt'), 'secret');
    for (const url of [
      `${UPLOAD_FILE_BASE}/20250101/00000000000000000000000000000000.png`,
      `${UPLOAD_FILE_BASE}/20250101/ffffffffffffffffffffffffffffffff.png`,
      `${UPLOAD_FILE_BASE}/../secret.txt`,
      `${UPLOAD_FILE_BASE}/..%2Fsecret.txt`,
      `${UPLOAD_FILE_BASE}/%2e%2e/secret.txt`,
      `${UPLOAD_FILE_BASE}/20250101/..%2F..%2Fsecret.txt`,
      `${UPLOAD_FILE_BASE}/..%5Csecret.txt`,
      `${UPLOAD_FILE_BASE}/%2Fetc%2Fpasswd`,
      `${UPLOAD_FILE_BASE}/../../../../etc/passwd`,
      `${UPLOAD_FILE_BASE}/`,
      `${UPLOAD_FILE_BASE}/20250101`,
    ]) {
      const res = await serve(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('secret');
      expect(res.headers['cache-control'], url).toBeUndefined();
    }
  });
});

describe('content checks', () => {
  test('signatures and SVG parsing', () => {
    expect(inspectContent('png', PNG)).toEqual({ ok: true, contentType: 'image/png' });
    expect(inspectContent('jpeg', JPEG)).toEqual({ ok: true, contentType: 'image/jpeg' });
    expect(inspectContent('csv', Buffer.from([0xc3, 0xfb, 0xb3, 0xc6, 0x0a]))).toEqual({
      ok: true,
      contentType: 'text/csv; charset=gb18030',
    });
    expect(inspectContent('csv', Buffer.from([0x61, 0x00, 0x62]))).toMatchObject({ ok: false });
    expect(inspectSvg('<svg/>')).toBe('ok');
    expect(inspectSvg('\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">\n<svg></svg>\n')).toBe('ok');
    expect(inspectSvg('<svg:svg xmlns:svg="http://www.w3.org/2000/svg"></svg:svg>')).toBe('ok');
    expect(inspectSvg('<svg><![CDATA[ <script> ]]></svg>')).toBe('ok');
    expect(inspectSvg('<svg></svg><svg></svg>')).toBe('invalid');
    expect(inspectSvg('<svg a="1" a="2"/>')).toBe('invalid');
    expect(inspectSvg('<svg a="1"b="2"/>')).toBe('invalid');
    expect(inspectSvg('<svg>&nbsp;</svg>')).toBe('invalid');
    expect(inspectSvg('<SVG></SVG>')).toBe('invalid');
    expect(inspectSvg('<svg><set attributeName="href" to="javascript:alert(1)"/></svg>')).toBe('active');
    expect(inspectSvg('<svg><image href="data:text/html;base64,AAAA"/></svg>')).toBe('active');
    expect(inspectSvg('<svg><g ONCLICK="x()"/></svg>')).toBe('active');
    expect(inspectSvg('<svg><a xlink:href="&#106;avascript:x()"/></svg>')).toBe('active');
  });
});

describe('local disk storage', () => {
  test('put, get, remove by key; keys that could leave its folder are refused', async () => {
    const storage = localDiskStorage(path.join(dataDir, 'driver'));
    await storage.put('20250101/abc.png', PNG, 'image/png');
    const got = await storage.get('20250101/abc.png');
    const chunks: Buffer[] = [];
    for await (const chunk of got!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(PNG);
    expect(got!.size).toBe(PNG.length);
    await storage.remove('20250101/abc.png');
    expect(await storage.get('20250101/abc.png')).toBeUndefined();
    await storage.remove('20250101/abc.png');
    for (const key of ['../secret.txt', '/etc/passwd', '20250101/../../x.png', 'a/./b.png', 'a\\b.png', '']) {
      await expect(storage.put(key, PNG, 'image/png'), key).rejects.toThrow(/unsafe storage key/);
      expect(await storage.get(key), key).toBeUndefined();
    }
  });
});

describe('private files', () => {
  test('a PDF or spreadsheet is served only to its uploader, upload admins and viewers of the record holding it', async () => {
    const [pdf, xlsx] = await uploaded(yunying, file('发票.pdf', PDF), file('名单.xlsx', XLSX));
    for (const { url } of [pdf, xlsx]) {
      const anonymous = await serve(url);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().msg).toBe(uploadMessages.privateSignIn);
      expect((await serve(url, yunying)).statusCode).toBe(200);
      expect((await serve(url, admin)).statusCode).toBe(200);
    }

    // The browser opening the link carries the console's access_token cookie, not a header.
    const token = yunying.authorization.replace('Bearer ', '');
    const viaCookie = await serve(pdf.url, {
      cookie: `user_info=x; access_token=${encodeURIComponent(token)}`,
    });
    expect(viaCookie.statusCode).toBe(200);
    expect(viaCookie.rawPayload).toEqual(PDF);
    expect(viaCookie.headers['cache-control']).toBe('private, no-cache');
    expect((await serve(pdf.url, { cookie: 'access_token=forged' })).statusCode).toBe(401);

    // Staff who may view 经营发票 open the PDF once an invoice holds it; 机场发票 viewers do not.
    await createRole(t.db, { code: 'pdf-reader', name: '发票查看', permissions: ['invoice:jingying:view'] });
    await createRole(t.db, {
      code: 'airport-reader',
      name: '机场发票查看',
      permissions: ['invoice:airport:view'],
    });
    await createUser(t.db, { username: 'pdfreader', password: 'Reader@123', roleCodes: ['pdf-reader'] });
    await createUser(t.db, {
      username: 'airportreader',
      password: 'Reader@123',
      roleCodes: ['airport-reader'],
    });
    const reader = await t.auth('pdfreader', 'Reader@123');
    const airportReader = await t.auth('airportreader', 'Reader@123');
    const before = await serve(pdf.url, reader);
    expect(before.statusCode).toBe(403);
    expect(before.json().msg).toBe(uploadMessages.privateForbidden);

    const [held] = await t.db
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.kind, 'invoice'))
      .limit(1);
    await t.db.update(invoices).set({ fileUrl: pdf.url }).where(eq(invoices.id, held.id));
    expect((await serve(pdf.url, reader)).statusCode).toBe(200);
    expect((await serve(pdf.url, airportReader)).statusCode).toBe(403);
    expect((await serve(xlsx.url, reader)).statusCode).toBe(403);

    // Images stay public: banners and logos are shown to members who never sign in.
    const [png] = await uploaded(yunying, file('logo.png', PNG));
    expect((await serve(png.url)).statusCode).toBe(200);
  });
});
