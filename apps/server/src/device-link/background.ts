/**
 * Work that follows a device message but must not hold its acknowledgement (a sync waits for the
 * device, a status is checked again later): it runs on its own, and a failure is logged with the sn.
 */
import type { FastifyBaseLogger } from 'fastify';

export type Background = (sn: string, work: Promise<unknown>) => void;

export const backgroundOf =
  (log: FastifyBaseLogger): Background =>
  (sn, work) =>
    void work.catch((error: unknown) => log.warn({ err: error, sn }, 'device message failed'));
