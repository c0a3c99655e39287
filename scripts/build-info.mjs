/**
 * `npm run build:server`'s last step: records the git commit the server is built from in
 * apps/server/dist/build-info.json, which /api/health and the start line show beside the version
 * (apps/server/src/lib/version.ts). Outside a git checkout, or without git, it records none.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
let commit;
try {
  commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
} catch {
  commit = undefined;
}
writeFileSync(
  new URL('../apps/server/dist/build-info.json', import.meta.url),
  `${JSON.stringify(commit ? { commit } : {})}\n`,
);
console.log(
  commit ? `Server built from commit ${commit}.` : 'Server built outside a git checkout: no commit recorded.',
);
