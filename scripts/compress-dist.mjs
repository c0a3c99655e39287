/**
 * After `vite build`: writes a brotli (.br, highest quality) and a gzip (.gz, level 9) copy beside
 * every text asset of the console's build larger than 1 KB, which the server sends to browsers that
 * accept them (plugins/web.ts, @fastify/static's preCompressed). Compressing once at build is why
 * the highest levels cost nothing at run time.
 *
 *   node scripts/compress-dist.mjs apps/web/dist
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|css|html|svg|json|txt|map)$/;
const MIN_BYTES = 1024;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

const dir = process.argv[2] ?? 'dist';
let count = 0;
for await (const file of files(dir)) {
  if (!TEXT.test(file) || (await stat(file)).size < MIN_BYTES) continue;
  const data = await readFile(file);
  await writeFile(
    `${file}.br`,
    brotliCompressSync(data, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  );
  await writeFile(`${file}.gz`, gzipSync(data, { level: 9 }));
  count++;
}
console.log(`compressed ${count} files in ${dir} (.br and .gz)`);
