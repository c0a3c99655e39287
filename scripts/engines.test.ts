/**
 * `npm install` is clean on the Node that `engines` promises: every locked package supports it.
 * (content-disposition@3 and cookie@2 wanted Node 22 and are held back by `overrides`.)
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));

describe('package engines', () => {
  it('every package in the lock file runs on the lowest Node that package.json accepts', () => {
    const lowest = semver.minVersion(read('package.json').engines.node as string)!.version;
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([, p]) => {
        const node = Array.isArray(p.engines) ? undefined : p.engines?.node;
        return node && !semver.satisfies(lowest, node, { includePrerelease: true });
      })
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version}`);
    expect(refusing).toEqual([]);
  });
});
