/**
 * Compressed size, as the server sends it (the `.br` file the build writes beside each asset; small
 * files, which have none, as they are), of what a browser loads for the login route, and for the
 * console shell after sign-in (entry, layout and home page), read from Vite's build manifest: the
 * JavaScript, which the budgets are for, and the CSS on its own (antd's prebuilt styles, one file
 * of every component's rules).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
  // A file too small to gain from compression has no .br and is sent as it is.
  const sentBytes = (file: string) => {
    const path = join(dist, file);
    return statSync(existsSync(`${path}.br`) ? `${path}.br` : path).size;
  };
  const sentKb = (files: string[]) => files.reduce((sum, file) => sum + sentBytes(file), 0) / 1024;
  const sizes = (files: Set<string>) => ({
    jsKb: sentKb([...files].filter((f) => f.endsWith('.js'))),
    cssKb: sentKb([...files].filter((f) => f.endsWith('.css'))),
  });
  const keysMatching = (pattern: RegExp) => Object.keys(manifest).filter((k) => pattern.test(k));

  const entry = Object.keys(manifest).filter((k) => manifest[k].isEntry);
  return {
    login: sizes(closure([...entry, ...keysMatching(/src\/pages\/login\.tsx$/)])),
    shell: sizes(closure([...entry, ...keysMatching(/src\/(layout\/|pages\/home\.tsx$)/)])),
  };
}
