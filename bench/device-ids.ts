/**
 * The bench devices' serial numbers and secrets, shared by the server process (device-server.ts) and
 * the devices that connect to it (devices.ts). Its own module: device-server.ts starts a server when
 * loaded, so importing these from it started one inside every `npm run bench`, which then never
 * exited.
 */
import { createHmac } from 'node:crypto';

const BENCH_DEVICE_KEY = 'cowork-bench-device-key';
export const benchSn = (i: number) => `BENCH-${String(i).padStart(5, '0')}`;
/** A bench device's secret: derived, never used outside the benchmark. */
export const benchSecret = (sn: string) =>
  createHmac('sha256', BENCH_DEVICE_KEY).update(sn).digest('base64url');
export const SYNC_SET_SIZE = 1_000;
/** The enrolment key of device-child.ts's server. */
export const CHILD_ENROL_KEY = 'cowork-child-enrol-key-0123456789';
