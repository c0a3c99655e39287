import { useMatches } from 'react-router';
import type { RouteMeta } from '../lib/route-guard.ts';

/** The meta (name, pageTitle, openNames, sort) of the deepest matched route that has one. */
export function useRouteMeta(): RouteMeta | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const handle = matches[i].handle as RouteMeta | undefined;
    if (handle?.name) return handle;
  }
  return undefined;
}
