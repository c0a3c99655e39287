/**
 * Gzip size of the JavaScript a browser loads for the login route, and for the console shell after
 * sign-in (entry, layout and home page), read from Vite's build manifest, against their budgets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = 'apps/web/dist';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

export function bundleSizes() {
  const manifestPath = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error('Build the console first: npm run build');
  const manifest: Record<string, Chunk> = JSON.parse(readFileSync(manifestPath, 'utf8'));

  // Everything a set of chunks loads statically (their own file, static imports and CSS).
  const closure = (keys: string[]) => {
    const files = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) return;
      files.add(chunk.file);
      chunk.css?.forEach((css) => files.add(css));
      chunk.imports?.forEach(visit);
    };
    keys.forEach(visit);
    return files;
  };
  const gzipKb = (files: Set<string>) =>
    [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0) /
    1024;
  const keysMatching = (pattern: RegExp) => Object.keys(manifest).filter((k) => pattern.test(k));

  const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  const login = closure([...entry, ...keysMatching(/src\/pages\/login\.tsx$/)]);
  const shell = closure([...entry, ...keysMatching(/src\/(layout\/|pages\/home\.tsx$)/)]);
  return { loginKb: gzipKb(login), shellKb: gzipKb(shell) };
}
