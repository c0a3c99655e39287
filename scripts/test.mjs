// `npm test`: every check in one command: types, lint, unit + API tests (vitest), then the browser
// end-to-end suite in Debian's Chromium against the built app.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium was not found at ${chromium}. Install Debian's package with ` +
      '`sudo apt-get install -y chromium` (or set CHROMIUM_PATH to a Chromium binary), then run `npm test` again.',
  );
  process.exit(1);
}

const steps = [
  ['Type check', 'npm', ['run', 'typecheck']],
  ['Lint', 'npm', ['run', 'lint']],
  ['Unit and API tests', 'npx', ['vitest', 'run']],
  ['Build the console and the server', 'npm', ['run', 'build']],
  ['End-to-end tests in Chromium', 'npx', ['playwright', 'test']],
];

for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}: ${command} ${args.join(' ')}`);
  const { status } = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (status !== 0) {
    console.error(`\n✖ ${title} failed (exit ${status}).`);
    process.exit(status ?? 1);
  }
}
console.log('\n✔ All checks passed.');
