/**
 * The instance's Prometheus metrics (prom-client), one registry per app: the tests build several
 * apps in one process, and each must count only its own traffic (prom-client's global default
 * registry would also refuse the second app's metrics of the same name).
 *
 * Counters and histograms are counted where things happen (HTTP in plugins/metrics.ts, statements
 * in db/observe.ts, device commands, drops and door events in device-link, webhook attempts in its
 * worker). What is a state rather than an event (devices online, sync lag, open alarms, the webhook
 * queue) is read from the database when Prometheus scrapes, one round of a few aggregates at most
 * once a second, so it is the same whichever instance answers. docs/monitoring.md lists them all.
 */
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { rowsOf, type Database } from '../db/client.ts';
import { observeQueries, poolCountsOf } from '../db/observe.ts';

/** What became of a device command (commands.ts): its `device_commands.state` told in more detail. */
export type CommandFate = 'acked' | 'refused' | 'timeout' | 'offline' | 'link-down' | 'publish-failed';

/** What the device link counts (device-link/link.ts hands it to its pieces). */
export interface DeviceMetrics {
  /** A command's fate, with the time from publishing to its ack when the device answered. */
  command(type: string, fate: CommandFate, answeredSeconds?: number): void;
  /** A device message dropped or declined, by the reason drops.ts records. */
  dropped(reason: string): void;
  /** Rows written to the open log (开门记录), by their result. */
  openLogWritten(results: readonly string[]): void;
}

/** What the webhook worker counts: each attempt at a delivery. */
export interface WebhookMetrics {
  attempt(endpointId: number, delivered: boolean, seconds: number): void;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The database's state, read once per scrape (at most once a second). */
interface Snapshot {
  devices: { buildingId: string; building: string; status: string; count: number }[];
  lagging: { status: string; count: number; oldest: number }[];
  alarms: { kind: string; count: number }[];
  webhooks: { pending: number; oldest: number };
}

const SNAPSHOT_MS = 1_000;

/** A label value from a free-form reason: one of a known, short shape, else `other` (bounded series). */
const boundedLabel = (value: string) => (/^[a-z][a-z0-9-]{0,31}$/.test(value) ? value : 'other');

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

async function readSnapshot(db: Database): Promise<Snapshot> {
  const devices = await rowsOf<Snapshot['devices'][number]>(
    db,
    sql`select coalesce(s.building_id::text, 'none') as "buildingId", coalesce(b.name, '') as building,
      d.status, count(*)::int as count
    from devices d
    left join spaces s on s.id = d.space_id
    left join buildings b on b.id = s.building_id
    group by 1, 2, 3`,
  );
  // Not holding the current access version: the same test as 权限未同步 (modules/alert/rules.ts).
  const lagging = await rowsOf<Snapshot['lagging'][number]>(
    db,
    sql`select status, count(*)::int as count,
      coalesce(extract(epoch from now() - min(access_changed_at)), 0)::float8 as oldest
    from devices
    where coalesce(held_version, acked_version) < access_version
    group by status`,
  );
  const alarms = await rowsOf<Snapshot['alarms'][number]>(
    db,
    sql`select kind, count(*)::int as count from device_alarms where state = 'open' group by kind`,
  );
  const [webhooks] = await rowsOf<Snapshot['webhooks']>(
    db,
    sql`select count(*)::int as pending,
      coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest
    from webhook_deliveries where status = 'pending'`,
  );
  return { devices, lagging, alarms, webhooks };
}

/**
 * The metrics of one app on `db`. `process` adds Node's own (event-loop lag, heap, GC): they start
 * timers and observers that live as long as the process, so only an app that serves its metrics
 * asks for them.
 */
export function createMetrics({ db, process: withProcess }: { db: Database; process: boolean }) {
  const registry = new Registry();
  const registers = [registry];
  if (withProcess) collectDefaultMetrics({ register: registry });

  let snapshot: { at: number; value: Promise<Snapshot | undefined> } | undefined;
  /** One read for every gauge of a scrape; undefined while the database does not answer. */
  const current = () => {
    if (!snapshot || Date.now() - snapshot.at > SNAPSHOT_MS)
      snapshot = { at: Date.now(), value: readSnapshot(db).catch(() => undefined) };
    return snapshot.value;
  };
  /** A gauge set from the snapshot at each scrape (emptied first: a deleted building's series goes). */
  const snapshotGauge = (
    name: string,
    help: string,
    labelNames: string[],
    set: (gauge: Gauge, state: Snapshot) => void,
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers,
      async collect() {
        this.reset();
        const state = await current();
        if (state) set(this, state);
      },
    });

  // HTTP: by route pattern (never the raw URL, whose ids and queries would make series without end).
  const httpLabels = ['method', 'route', 'status_class'];
  const httpRequests = new Counter({
    name: 'cowork_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: httpLabels,
    registers,
  });
  const httpSeconds = new Histogram({
    name: 'cowork_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer sent, by method, route pattern and status class',
    labelNames: httpLabels,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });

  // Database: statements timed by the engine's handle; the connections read at scrape.
  const querySeconds = new Histogram({
    name: 'cowork_db_query_duration_seconds',
    help: 'Duration of database statements (on PGlite including the wait for its single connection)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const queryErrors = new Counter({
    name: 'cowork_db_query_errors_total',
    help: 'Database statements that failed (refused, timed out, or lost with their connection)',
    registers,
  });
  const unobserve = observeQueries(db, (seconds, failed) => {
    querySeconds.observe(seconds);
    if (failed) queryErrors.inc();
  });
  const pool = (
    name: string,
    help: string,
    pick: (c: NonNullable<ReturnType<typeof poolCountsOf>>) => number,
  ) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const counts = poolCountsOf(db);
        if (counts) this.set(pick(counts));
      },
    });
  pool(
    'cowork_db_pool_connections_in_use',
    'Database connections running a statement or transaction',
    (c) => c.inUse,
  );
  pool('cowork_db_pool_connections_open', 'Database connections open (PGlite: its one)', (c) => c.open);
  pool('cowork_db_pool_connections_max', 'The most database connections the pool opens', (c) => c.max);
  pool('cowork_db_pool_waiting', 'Requests waiting for a free database connection', (c) => c.waiting);
  new Gauge({
    name: 'cowork_database_up',
    help: '1 when the database answered the scrape-time reads, 0 when it did not',
    registers,
    async collect() {
      this.set((await current()) ? 1 : 0);
    },
  });

  // Door devices.
  let linkUp: () => boolean = () => false;
  new Gauge({
    name: 'cowork_device_link_up',
    help: "1 when this instance's link to the door devices (MQTT) is up",
    registers,
    collect() {
      this.set(linkUp() ? 1 : 0);
    },
  });
  snapshotGauge(
    'cowork_devices',
    'Registered door devices by building and status (online, offline)',
    ['building_id', 'building', 'status'],
    (gauge, state) => {
      for (const d of state.devices)
        gauge.set({ building_id: d.buildingId, building: d.building, status: d.status }, d.count);
    },
  );
  snapshotGauge(
    'cowork_device_sync_lagging',
    'Devices not holding their current access version, by status',
    ['status'],
    (gauge, state) => state.lagging.forEach((l) => gauge.set({ status: l.status }, l.count)),
  );
  snapshotGauge(
    'cowork_device_sync_lag_oldest_seconds',
    'How long the longest-lagging device has been without its current access version, by status',
    ['status'],
    (gauge, state) => state.lagging.forEach((l) => gauge.set({ status: l.status }, l.oldest)),
  );
  snapshotGauge(
    'cowork_device_alarms_open',
    'Open device alarms (告警记录), by kind',
    ['kind'],
    (gauge, state) => state.alarms.forEach((a) => gauge.set({ kind: a.kind }, a.count)),
  );
  const commands = new Counter({
    name: 'cowork_device_commands_total',
    help: 'Device commands sent by this instance, by type and fate',
    labelNames: ['type', 'fate'],
    registers,
  });
  const answeredSeconds = new Histogram({
    name: 'cowork_device_command_ack_seconds',
    help: 'Time from publishing a device command to its ack, by type',
    labelNames: ['type'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers,
  });
  const dropped = new Counter({
    name: 'cowork_device_messages_dropped_total',
    help: 'Device messages dropped or declined by this instance, by reason',
    labelNames: ['reason'],
    registers,
  });
  const openLogWrites = new Counter({
    name: 'cowork_device_open_log_writes_total',
    help: 'Door events written to the open log (开门记录) by this instance, by result',
    labelNames: ['result'],
    registers,
  });

  // Webhooks (开放平台).
  snapshotGauge(
    'cowork_webhook_deliveries_pending',
    'Webhook deliveries waiting to be delivered (the queue)',
    [],
    (gauge, state) => gauge.set(state.webhooks.pending),
  );
  snapshotGauge(
    'cowork_webhook_oldest_pending_seconds',
    'Age of the oldest webhook delivery still pending',
    [],
    (gauge, state) => gauge.set(state.webhooks.oldest),
  );
  const deliverySeconds = new Histogram({
    name: 'cowork_webhook_delivery_duration_seconds',
    help: 'Duration of webhook delivery attempts by this instance, by outcome (delivered, failed)',
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const deliveryFailures = new Counter({
    name: 'cowork_webhook_delivery_failures_total',
    help: 'Webhook delivery attempts that failed, by endpoint (开放平台 推送地址 id)',
    labelNames: ['endpoint_id'],
    registers,
  });

  const device: DeviceMetrics = {
    command(type, fate, seconds) {
      const label = boundedLabel(type);
      commands.inc({ type: label, fate });
      if (seconds !== undefined) answeredSeconds.observe({ type: label }, seconds);
    },
    dropped: (reason) => dropped.inc({ reason: boundedLabel(reason) }),
    openLogWritten(results) {
      for (const result of results) openLogWrites.inc({ result: boundedLabel(result) });
    },
  };
  const webhook: WebhookMetrics = {
    attempt(endpointId, delivered, seconds) {
      deliverySeconds.observe({ outcome: delivered ? 'delivered' : 'failed' }, seconds);
      if (!delivered) deliveryFailures.inc({ endpoint_id: String(endpointId) });
    },
  };

  return {
    registry,
    /** One answered request: `route` is the route's pattern, undefined when no route matched. */
    http(method: string, route: string | undefined, status: number, seconds: number) {
      const labels = { method, route: route ?? 'unmatched', status_class: statusClass(status) };
      httpRequests.inc(labels);
      httpSeconds.observe(labels, seconds);
    },
    device,
    webhook,
    /** Reads the device link's state at each scrape (the link is made after the metrics). */
    watchLink(up: () => boolean) {
      linkUp = up;
    },
    close() {
      unobserve();
    },
  };
}
