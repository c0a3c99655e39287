/**
 * `npm start`'s first step: builds the console (vite) and the server (TypeScript to JavaScript in
 * apps/server/dist, with the contract in packages/contract/dist) only when a source is newer than
 * the last build, so a start with nothing changed goes straight to `node`. `npm run build` always
 * builds both.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

const targets = [
  {
    name: 'the console',
    stamp: 'apps/web/dist/.built',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'packages/contract/src',
      'scripts/compress-dist.mjs',
    ],
    command: 'npm run build:web',
  },
  {
    name: 'the server',
    stamp: 'apps/server/dist/.built',
    inputs: [
      'apps/server/src',
      'packages/contract/src',
      'apps/server/tsconfig.build.json',
      'packages/contract/tsconfig.build.json',
      'tsconfig.base.json',
    ],
    command: 'npm run build:server',
  },
];

/** The newest modification time under these paths (files and folders, recursively). */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    latest = Math.max(latest, stat.mtimeMs);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  for (const path of paths) visit(join(root, path));
  return latest;
}

for (const target of targets) {
  const stamp = join(root, target.stamp);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newest(target.inputs)) continue;
  console.log(`Building ${target.name} (its sources changed since the last build)…`);
  execSync(target.command, { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
