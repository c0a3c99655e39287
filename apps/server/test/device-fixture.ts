/**
 * Door devices for API tests: an app with its own enrolment key, the admin's calls through
 * `app.inject`, and simulated devices that enrol, are registered as the console does and connect
 * with their secret; `close()` closes them and the app.
 *
 * @example
 * const doors = doorFixture({ enrolKey: 'test-enrol-key-x', device: { protocol: '1.1' } });
 * beforeAll(() => doors.start());
 * afterAll(() => doors.close());
 * test('…', async () => {
 *   const { d, id } = await doors.registered('X-1');
 * });
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyServerOptions } from 'fastify';
import { expect } from 'vitest';
import { deviceEndpoints, IDEMPOTENCY_KEY_HEADER, type DeviceRecord } from '@cowork/contract';
import type { Config } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { spaces } from '../src/db/schema.ts';
import type { Envelope } from '../src/device-link/protocol.ts';
import { SimulatedDevice, type SimulatorOptions } from '../src/device-link/simulator.ts';
import { buildTestApp, demo, type TestApp, until } from './helper.ts';

type Answer = ReturnType<NonNullable<SimulatorOptions['answer']>>;

/** A simulated device's options; its `answer` may act as the device (send an ack of its own later). */
export type DeviceOptions = Omit<Partial<SimulatorOptions>, 'answer'> & {
  answer?: (command: Envelope, device: SimulatedDevice) => Answer;
};

export interface DoorFixtureOptions {
  enrolKey: string;
  /** Every device's options unless a call says otherwise. */
  device?: DeviceOptions;
  /** Registers devices in a room of the demo (`room`), else in no space. */
  inRoom?: boolean;
  /** Registers with an Idempotency-Key, as the console does. */
  idempotent?: boolean;
  /** A registered device is ready once 已同步 (its first sync acked), not only sent its first sync. */
  synced?: boolean;
}

/** A room below another space, with its building: where `inRoom` places devices. */
async function aRoom(db: Database) {
  const [room] = await db
    .select({ id: spaces.id, buildingId: spaces.buildingId, parentId: spaces.parentId })
    .from(spaces)
    .where(and(eq(spaces.kind, 'room'), isNotNull(spaces.parentId)))
    .limit(1);
  return room;
}

/** What the enrolling device shares with the registered one: what its hello says. */
const identity = ({ protocol, model, vendor, firmware }: DeviceOptions): DeviceOptions => ({
  protocol,
  model,
  vendor,
  firmware,
});

export function doorFixture(options: DoorFixtureOptions) {
  const { enrolKey } = options;
  let app: TestApp | undefined;
  let headers: Record<string, string> = {};
  let url = '';
  let room: Awaited<ReturnType<typeof aRoom>> | undefined;
  let started: SimulatedDevice[] = [];
  let keyNo = 0;
  const t = () => {
    if (!app) throw new Error('doorFixture: start() first');
    return app;
  };

  /** A GET as the admin; `extra` headers go over theirs (another user's authorization). */
  const get = (
    path: string,
    query: Record<string, string | number> = {},
    extra: Record<string, string> = {},
  ) =>
    t().app.inject({
      method: 'GET',
      url: path,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      headers: { ...headers, ...extra },
    });
  /** A POST as the admin; `extra` headers go over theirs (another user's authorization, a key). */
  const post = (path: string, payload: object, extra: Record<string, string> = {}) =>
    t().app.inject({ method: 'POST', url: path, payload, headers: { ...headers, ...extra } });

  /** The device's row in 设备管理 (the list searches by sn prefix: this is the exact one). */
  const pageOf = async (sn: string): Promise<DeviceRecord> => {
    const { records } = (await get(deviceEndpoints.page, { sn })).json<{
      data: { records: DeviceRecord[] };
    }>().data;
    const row = records.find((r) => r.sn === sn);
    if (!row) throw new Error(`${sn} is not listed`);
    return row;
  };
  /** Whether the device waits in the list of devices not yet registered. */
  const waiting = async (sn: string) =>
    (await get(deviceEndpoints.unPulledList))
      .json<{ data: { sn: string }[] }>()
      .data.some((d) => d.sn === sn);

  const nextIdempotencyKey = () => `${enrolKey}-${process.pid}-${++keyNo}`;

  async function connected({ answer, ...rest }: DeviceOptions & { sn: string }) {
    const d: SimulatedDevice = new SimulatedDevice({
      url,
      enrolKey,
      ...rest,
      ...(answer ? { answer: (command) => answer(command, d) } : {}),
    });
    started.push(d);
    await d.connect();
    return d;
  }
  /** A device with the fixture's options, connected (with `secret`, or enrolling with the key). */
  const device = (deviceOptions: DeviceOptions & { sn: string }) =>
    connected({ ...options.device, ...deviceOptions });

  /**
   * Enrols `sn`, registers it (named `门 <sn>` unless `as.name`) and connects it with its secret;
   * answers once it is online and got its first sync (and is 已同步, with `synced`).
   */
  async function registered(
    sn: string,
    deviceOptions: DeviceOptions = {},
    as: { name?: string; idempotencyKey?: string } = {},
  ) {
    const enrolling = await connected({ ...identity({ ...options.device, ...deviceOptions }), sn });
    await until(() => waiting(sn), `${sn} waiting`);
    const idempotencyKey = as.idempotencyKey ?? (options.idempotent ? nextIdempotencyKey() : undefined);
    const res = await post(
      deviceEndpoints.register,
      { sn, name: as.name ?? `门 ${sn}`, spaceId: room?.id ?? null },
      idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } : {},
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json<{ data: { id: number; secret: string } }>();
    const { id, secret } = answer.data;
    await enrolling.close();
    const d = await device({ ...deviceOptions, sn, secret });
    await until(async () => (await pageOf(sn)).status === 'online', `${sn} online`);
    await until(() => d.commands.some((c) => c.type === 'sync'), `${sn} sent its first sync`);
    if (options.synced) await until(async () => (await pageOf(sn)).syncState === 'synced', `${sn} synced`);
    return { d, id, sn, secret, answer };
  }

  return {
    get,
    post,
    pageOf,
    waiting,
    device,
    registered,
    nextIdempotencyKey,
    get headers() {
      return headers;
    },
    get url() {
      return url;
    },
    /** The room devices are registered in (`inRoom`). */
    get room() {
      if (!room) throw new Error('doorFixture: a room needs inRoom and start()');
      return room;
    },
    /**
     * Builds the app (ready, its broker up) and signs the admin in; `brokerUrl` is where devices
     * connect when the app is a client of another broker.
     */
    async start(
      setup: {
        config?: Partial<Config>;
        demoRows?: boolean;
        brokerUrl?: string;
        logger?: FastifyServerOptions['logger'];
      } = {},
    ) {
      started = [];
      app = await buildTestApp({
        demoRows: setup.demoRows,
        config: { deviceEnrolKey: enrolKey, ...setup.config },
        logger: setup.logger,
      });
      await app.app.ready();
      headers = await app.auth(...demo.admin);
      url = setup.brokerUrl ?? app.app.devices.status().url!;
      if (options.inRoom) room = await aRoom(app.db);
      return app;
    },
    async close() {
      await Promise.all(started.map((d) => d.close().catch(() => undefined)));
      await app?.close();
    },
  };
}
