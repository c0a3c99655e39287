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
/** An sn or an address saying hello with the enrolment key: 1 a second, a burst of 10. */
export const ENROL_RATE: FairRateOptions = { perSecond: 1, burst: 10 };

export function fairRate({ perSecond, burst, maxKeys = 100_000 }: FairRateOptions) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refilled = (bucket: { tokens: number; at: number }, now: number) =>
    Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);

  return {
    /** Takes one token for `key`: false when its bucket is empty (decline the message). */
    take(key: string, now = Date.now()): boolean {
      const bucket = buckets.get(key);
      if (!bucket) {
        if (buckets.size >= maxKeys) forgetIdle(now);
        buckets.set(key, { tokens: burst - 1, at: now });
        return true;
      }
      bucket.tokens = refilled(bucket, now);
      bucket.at = now;
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };

  function forgetIdle(now: number) {
    for (const [key, bucket] of buckets) if (refilled(bucket, now) >= burst) buckets.delete(key);
    // Every key busy: forget the oldest half rather than grow without bound.
    if (buckets.size >= maxKeys) [...buckets.keys()].slice(0, maxKeys / 2).forEach((k) => buckets.delete(k));
  }
}
