/**
 * Finding 14 (uploads): with two instances, a file uploaded through one was a 404 through the other,
 * and deleting it there removed the record but left the file. With STORAGE=s3 both instances keep
 * files in one bucket. The bucket is s3rver, an S3-compatible server run in this process: neither
 * AWS nor MinIO can run here (no binary downloads), and the driver speaks plain S3 to it.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { UPLOAD_FILE_BASE, uploadEndpoints, type UploadedFileInfo } from '@cowork/contract';
import { buildApp, type App } from '../../src/app.ts';
import { loadConfig, type StorageConfig } from '../../src/config.ts';
import { buildTestApp, demo, testConfig, type TestApp } from '../helper.ts';

const BUCKET = 'cowork-uploads';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let s3: S3rver;
let s3Dir: string;
let storage: StorageConfig;
let first: TestApp;
let second: App;
let dirs: string[] = [];
let authorization: string;

beforeAll(async () => {
  s3Dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cowork-s3-'));
  s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: s3Dir,
    configureBuckets: [{ name: BUCKET, configs: [] }],
  });
  const { port } = (await s3.run()) as unknown as { port: number };
  // Read from the environment as a deployment would, so the variables themselves are covered.
  storage = loadConfig({
    STORAGE: 's3',
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_PREFIX: 'test/',
  }).storage;
  dirs = await Promise.all([1, 2].map(() => fs.mkdtemp(path.join(os.tmpdir(), 'cowork-instance-'))));
  // Two instances on one database, each with its own data directory, as on two machines.
  first = await buildTestApp({ demoRows: false, config: { dataDir: dirs[0], storage } });
  second = await buildApp({ config: testConfig({ dataDir: dirs[1], storage }), db: first.db, logger: false });
  ({ authorization } = await first.auth(...demo.yunying));
});

afterAll(async () => {
  await second?.close();
  await first?.close();
  await s3?.close();
  await Promise.all([s3Dir, ...dirs].filter(Boolean).map((d) => fs.rm(d, { recursive: true, force: true })));
});

function upload(app: App, content: Buffer) {
  const boundary = '----coworkstorage';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="logo.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return app.inject({
    method: 'POST',
    url: uploadEndpoints.upload,
    headers: { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

const objectOf = (key: string) =>
  new S3Client({
    endpoint: storage.kind === 's3' ? storage.endpoint : undefined,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
    .send(new GetObjectCommand({ Bucket: BUCKET, Key: `test/${key}` }))
    .then(
      async (o) => Buffer.from(await o.Body!.transformToByteArray()),
      () => undefined,
    );

test('a file uploaded through one instance is served, and removed, through the other', async () => {
  const res = await upload(first.app, PNG);
  expect(res.statusCode, res.body).toBe(200);
  const file = res.json<{ data: UploadedFileInfo }>().data;
  expect(file.url).toBe(`${UPLOAD_FILE_BASE}/${file.key}`);
  expect(await objectOf(file.key)).toEqual(PNG);
  // Nothing written to either instance's own disk.
  expect(await fs.readdir(path.join(dirs[0], 'uploads')).catch(() => [])).toEqual([]);

  const served = await second.inject({ method: 'GET', url: file.url });
  expect(served.statusCode).toBe(200);
  expect(served.headers['content-type']).toBe('image/png');
  expect(served.rawPayload).toEqual(PNG);

  const removed = await second.inject({
    method: 'DELETE',
    url: uploadEndpoints.remove,
    headers: { authorization },
    payload: { url: file.url },
  });
  expect(removed.statusCode, removed.body).toBe(200);
  expect(await objectOf(file.key)).toBeUndefined();
  expect((await first.app.inject({ method: 'GET', url: file.url })).statusCode).toBe(404);
});

test('a file refused for its content never reaches the bucket', async () => {
  const res = await upload(second, Buffer.from('not a png at all'));
  expect(res.statusCode).toBe(400);
  const listed = await fs.readdir(path.join(s3Dir, BUCKET), { recursive: true });
  expect(listed.filter((f) => f.endsWith('.png'))).toEqual([]);
});

test('STORAGE=s3 needs a bucket; keys must come in pairs', () => {
  expect(() => loadConfig({ STORAGE: 's3' })).toThrow(/S3_BUCKET is required/);
  expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: BUCKET, S3_ACCESS_KEY_ID: 'x' })).toThrow(
    /must be set together/,
  );
  expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE must be local or s3/);
  expect(loadConfig({}).storage).toEqual({ kind: 'local' });
});
