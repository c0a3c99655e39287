/**
 * What the metrics (lib/metrics.ts) see of a database: every statement's duration and whether it
 * failed, and the connections in use and waited for. Each engine's handle (pglite.ts, postgres.ts)
 * times its driver's queries at the one place they all pass and attaches that to its drizzle
 * instance; an app observes the database it is given, whichever engine runs it.
 */

/** Connections: open, in use, requests waiting for one, and the most there may be. */
export interface PoolCounts {
  open: number;
  inUse: number;
  waiting: number;
  max: number;
}

export type QueryListener = (seconds: number, failed: boolean) => void;

interface Observation {
  listeners: Set<QueryListener>;
  pool: () => PoolCounts;
}

const observations = new WeakMap<object, Observation>();

/**
 * Made by a handle before its drizzle instance: `start()` at each statement answers the function
 * to call when it ends; `attach(db)` then makes the drizzle instance observable.
 */
export function queryObservation(pool: () => PoolCounts) {
  const observation: Observation = { listeners: new Set(), pool };
  return {
    start() {
      const started = process.hrtime.bigint();
      return (failed: boolean) => {
        if (observation.listeners.size === 0) return;
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        for (const listener of observation.listeners) listener(seconds, failed);
      };
    },
    attach(db: object) {
      observations.set(db, observation);
    },
  };
}

/** Times a promise-answering call: `end` is told once it settles, and whether it failed. */
export function timed<T>(end: (failed: boolean) => void, run: () => Promise<T>): Promise<T> {
  let promise: Promise<T>;
  try {
    promise = run();
  } catch (error) {
    end(true);
    throw error;
  }
  promise.then(
    () => end(false),
    () => end(true),
  );
  return promise;
}

/** Tells `listener` of every statement on `db` until the answered function is called. */
export function observeQueries(db: object, listener: QueryListener): () => void {
  const observation = observations.get(db);
  observation?.listeners.add(listener);
  return () => observation?.listeners.delete(listener);
}

/** The connections of `db`'s handle now; undefined for a database opened without one (a mock). */
export function poolCountsOf(db: object): PoolCounts | undefined {
  return observations.get(db)?.pool();
}
