/**
 * The version running, for /api/health and the start line: apps/server/package.json's version,
 * and the git commit the server was built from when the build recorded one (`npm run build:server`
 * writes dist/build-info.json through scripts/build-info.mjs; the sources run by tsx have none).
 */
import { readFileSync } from 'node:fs';
import { textOf } from './unknown.ts';

export interface RunningVersion {
  version: string;
  /** The commit's abbreviated hash (12 hex digits, more when that is ambiguous). */
  commit?: string;
}

function jsonAt(relative: string): unknown {
  try {
    return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8'));
  } catch {
    return undefined;
  }
}

// Both src/lib/ and dist/lib/ sit two folders below apps/server/.
const version = textOf(jsonAt('../../package.json'), 'version') ?? 'unknown';
const commit = textOf(jsonAt('../build-info.json'), 'commit');

export const runningVersion: RunningVersion = {
  version,
  ...(commit && /^[0-9a-f]{7,40}$/.test(commit) ? { commit } : {}),
};

/** `0.1.0 (commit 295aa2ccf657)`, or the version alone. */
export const versionLabel = runningVersion.commit
  ? `${runningVersion.version} (commit ${runningVersion.commit})`
  : runningVersion.version;
