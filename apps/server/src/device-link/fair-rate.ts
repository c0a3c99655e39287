/**
 * Token buckets by key (a device's sn, an enrolling sn, an address): each key may spend `burst`
 * messages at once and earns `perSecond` back, so one device cannot starve the others (v1.1
 * Delivery: beyond a fair rate the server declines). The numbers are in docs/devices.md.
 */
export interface FairRateOptions {
  perSecond: number;
  burst: number;
  /** Buckets kept at most; full ones (idle keys) are forgotten first. */
  maxKeys?: number;
}

/** 20 messages a second with a burst of 100: far above any real door (a heartbeat every 30 s, a few swipes a minute, a backlog sent after an outage in a few seconds). */
export const DEVICE_RATE: FairRateOptions = { perSecond: 20, burst: 100 };
/** How long the embedded broker holds a device's message for its turn before declining it. */
export const HOLD_MS = 5_000;
/** An sn or an address saying hello with the enrolment key: 1 a second, a burst of 10. */
export const ENROL_RATE: FairRateOptions = { perSecond: 1, burst: 10 };

export function fairRate({ perSecond, burst, maxKeys = 100_000 }: FairRateOptions) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refilled = (bucket: { tokens: number; at: number }, now: number) =>
    Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);

  const bucketOf = (key: string, now: number) => {
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size >= maxKeys) forgetIdle(now);
      bucket = { tokens: burst, at: now };
      buckets.set(key, bucket);
    }
    bucket.tokens = refilled(bucket, now);
    bucket.at = now;
    return bucket;
  };

  return {
    /** Takes one token for `key`: false when its bucket is empty (decline the message). */
    take(key: string, now = Date.now()): boolean {
      const bucket = bucketOf(key, now);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
    /**
     * Reserves the next token for `key`: how many ms until it is earned (0: now), or undefined
     * when that is more than `holdMs` away (decline). Holding a message that long, its sender
     * waiting for the PUBACK, slows a flood to the fair rate without losing anything.
     */
    reserve(key: string, holdMs: number, now = Date.now()): number | undefined {
      const bucket = bucketOf(key, now);
      const wait = bucket.tokens >= 1 ? 0 : ((1 - bucket.tokens) / perSecond) * 1000;
      if (wait > holdMs) return undefined;
      bucket.tokens -= 1;
      return wait;
    },
  };

  function forgetIdle(now: number) {
    for (const [key, bucket] of buckets) if (refilled(bucket, now) >= burst) buckets.delete(key);
    // Every key busy: forget the oldest half rather than grow without bound.
    if (buckets.size >= maxKeys) [...buckets.keys()].slice(0, maxKeys / 2).forEach((k) => buckets.delete(k));
  }
}
