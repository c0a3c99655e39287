/**
 * `npm run lint` fails on an import across a line that apps/server/src/modules/README.md does not
 * allow (import-x/no-restricted-paths in eslint.config.js), and the README's tables say exactly
 * what the rule allows. Each case lints a few lines as if they were a file at that path; the
 * imported files are real, since the rule judges an import by the file it resolves to.
 */
import { readFileSync } from 'node:fs';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const eslint = new ESLint({ cwd: root });
const RULE = 'import-x/no-restricted-paths';
const modules = 'apps/server/src/modules';

/** The lines of `imports` that the boundary rule refuses, as if written in `filePath`. */
async function refusedLines(filePath: string, imports: string[]): Promise<number[]> {
  const code = imports.map((from, i) => `import * as imported${i} from '${from}';`).join('\n');
  const [result] = await eslint.lintText(
    `${code}\nexport { ${imports.map((_, i) => `imported${i}`).join(', ')} };\n`,
    {
      filePath: `${root}${filePath}`,
    },
  );
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.line);
}

// The first lint loads the whole configuration, parser included: seconds on a loaded machine.
describe('module boundaries', { timeout: 60_000 }, () => {
  it('a module imports its own files, the floors below it, the contract and the shared module files', async () => {
    const refused = await refusedLines(`${modules}/profile/boundary-fixture.ts`, [
      './routes.ts',
      '../../db/schema.ts',
      '../../lib/http.ts',
      '../../plugins/auth.ts',
      '@cowork/contract',
      'drizzle-orm',
      '../auth/tokens.ts',
      '../area/areas.ts',
    ]);
    expect(refused).toEqual([]);
  });

  it("a module importing another module's own file, or the app above it, fails the lint", async () => {
    const refused = await refusedLines(`${modules}/profile/boundary-fixture.ts`, [
      '../auth/routes.ts',
      '../order/save.ts',
      '../../app.ts',
      '../../plugins/idempotency.ts',
      '../../../../web/src/main.tsx',
    ]);
    expect(refused).toEqual([1, 2, 3, 4, 5]);
  });

  it('lib, plugins, db and device-link import no module', async () => {
    for (const floor of ['lib', 'plugins', 'db', 'device-link']) {
      expect(
        await refusedLines(`apps/server/src/${floor}/boundary-fixture.ts`, ['../modules/auth/tokens.ts']),
      ).toEqual([1]);
      expect(await refusedLines(`apps/server/src/${floor}/boundary-fixture.ts`, ['../lib/http.ts'])).toEqual(
        [],
      );
    }
  });

  it('the contract imports neither the server nor the console; the console does not import the server', async () => {
    expect(
      await refusedLines('packages/contract/src/boundary-fixture.ts', [
        '../../../apps/server/src/lib/http.ts',
        '../../../apps/web/src/main.tsx',
        './index.ts',
      ]),
    ).toEqual([1, 2]);
    expect(
      await refusedLines('apps/web/src/boundary-fixture.ts', [
        '../../server/src/lib/http.ts',
        '@cowork/contract',
      ]),
    ).toEqual([1]);
  });

  it('end-to-end tests import of the server only the door-device simulator and the configuration', async () => {
    expect(
      await refusedLines('e2e/boundary-fixture.ts', [
        '../apps/server/src/device-link/simulator.ts',
        '../apps/server/src/config.ts',
        '../apps/server/src/lib/http.ts',
      ]),
    ).toEqual([3]);
  });
});

/** The first column of the table under a README heading: the paths it lists. */
function listedUnder(readme: string, heading: string): string[] {
  const section = readme.split(/^## /m).find((part) => part.startsWith(heading));
  if (!section) throw new Error(`modules/README.md has no section "${heading}"`);
  return [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]).sort();
}

describe('modules/README.md', { timeout: 60_000 }, () => {
  it('lists exactly what the rule lets a module import', async () => {
    const readme = readFileSync(`${root}${modules}/README.md`, 'utf8');
    const config = await eslint.calculateConfigForFile(`${root}${modules}/profile/routes.ts`);
    const [, { zones }] = config.rules[RULE];
    const own = `${modules}/profile`;
    const { except } = zones.find((zone: { target: unknown }) => zone.target === own);
    const allowed: string[] = except.filter((path: string) => path !== own);
    const shared = allowed
      .filter((path) => path.startsWith(`${modules}/`))
      .map((path) => path.slice(modules.length + 1));
    const lower = allowed
      .filter((path) => path.startsWith('apps/server/src/') && !path.startsWith(`${modules}/`))
      .map((path) => path.slice('apps/server/src/'.length));
    expect(listedUnder(readme, 'Module files shared across modules')).toEqual(shared.sort());
    expect(listedUnder(readme, 'What a module imports')).toEqual(lower.sort());
    expect(allowed.filter((path) => !path.startsWith('apps/server/src/')).sort()).toEqual([
      'node_modules',
      'packages/contract',
    ]);
  });
});
