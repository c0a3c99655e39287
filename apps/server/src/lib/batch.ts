/**
 * Calls made in one turn of the event loop gathered into one database statement: many devices'
 * messages arrive together (a sync fanned out to a thousand doors, their acks, heartbeats), and one
 * statement for all of them costs little more than one for each.
 *
 * @example
 *   const secretOf = batchLoader((sns: string[]) => readSecrets(sns)); // Map<sn, secret>
 *   await secretOf('DOOR-1');
 */
interface Waiting<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/** A load by key; the keys asked for in one turn are read together. */
export function batchLoader<K, V>(load: (keys: K[]) => Promise<Map<K, V>>) {
  let pending: Map<K, Waiting<V | undefined>[]> | undefined;
  const flush = async () => {
    const batch = pending!;
    pending = undefined;
    try {
      const found = await load([...batch.keys()]);
      for (const [key, waiting] of batch) waiting.forEach((w) => w.resolve(found.get(key)));
    } catch (error) {
      for (const waiting of batch.values()) waiting.forEach((w) => w.reject(error));
    }
  };
  return (key: K) =>
    new Promise<V | undefined>((resolve, reject) => {
      if (!pending) {
        pending = new Map();
        setImmediate(() => void flush());
      }
      const waiting = pending.get(key) ?? [];
      waiting.push({ resolve, reject });
      pending.set(key, waiting);
    });
}

/** A write; the items written in one turn go in one call, each caller waiting for it. */
export function batchWriter<T>(write: (items: T[]) => Promise<void>) {
  let pending: { items: T[]; waiting: Waiting<void>[] } | undefined;
  const flush = async () => {
    const batch = pending!;
    pending = undefined;
    try {
      await write(batch.items);
      batch.waiting.forEach((w) => w.resolve());
    } catch (error) {
      batch.waiting.forEach((w) => w.reject(error));
    }
  };
  return (item: T) =>
    new Promise<void>((resolve, reject) => {
      if (!pending) {
        pending = { items: [], waiting: [] };
        setImmediate(() => void flush());
      }
      pending.items.push(item);
      pending.waiting.push({ resolve, reject });
    });
}
