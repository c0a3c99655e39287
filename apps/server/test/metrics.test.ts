/**
 * /metrics: served only with METRICS_TOKEN (401 without it) or on METRICS_PORT's own listener (the
 * main port then answers 404); its names are there and its counters move with the traffic the test
 * makes (requests, statements, a device's commands, drops, door events and alarms, webhook
 * deliveries). The alert rules and the Grafana dashboard in docs/monitoring name only metrics that
 * exist, and `promtool check rules` accepts the rules when Prometheus's tools are installed.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http, { type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { deviceEndpoints, endpoints, webhookEventExamples } from '@cowork/contract';
import { webhookApi } from '@cowork/contract/resources/webhook';
import { ConfigError, loadConfig } from '../src/config.ts';
import { devices } from '../src/db/schema.ts';
import { recordEvent } from '../src/lib/outbox.ts';
import { doorFixture } from './device-fixture.ts';
import { buildTestApp, callApi, type TestApp, until } from './helper.ts';

const token = 'metrics-test-token-0123456789abcdef-0123';
const doors = doorFixture({
  enrolKey: 'metrics-enrol-key-0123456789',
  inRoom: true,
  device: { protocol: '1.1' },
});
const docs = new URL('../../../docs/monitoring/', import.meta.url);

/** The samples of a scrape: name, labels and value of each line that is not a comment. */
function samples(text: string) {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The sum of a metric's samples whose labels include `labels`. */
const valueOf = (text: string, name: string, labels: Record<string, string> = {}) =>
  samples(text)
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

/** The metric names a scrape declares (its # HELP lines). */
const declared = (text: string) => new Set([...text.matchAll(/^# HELP (\S+) /gm)].map((m) => m[1]));

/** A receiver for webhooks: 200 on /ok, 500 on /fail. */
const hits: string[] = [];
const receiver = http.createServer((req, res: ServerResponse) => {
  req.resume();
  req.on('end', () => {
    hits.push(req.url ?? '');
    res.writeHead(req.url === '/ok' ? 200 : 500, { 'content-type': 'text/plain' }).end('x');
  });
});

let t: TestApp;
let admin: Record<string, string>;

const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${token}` }) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers });
const metricsText = async () => {
  const res = await scrape();
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

describe('with METRICS_TOKEN', () => {
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    t = await doors.start({
      config: { metrics: { token, port: undefined, host: '127.0.0.1' }, webhookAllowPrivate: true },
    });
    admin = doors.headers;
  });
  afterAll(async () => {
    await doors.close();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  test('answers only the bearer of the token', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: `Bearer ${token.slice(0, -1)}` },
      { authorization: token },
      admin,
    ]) {
      const res = await scrape(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.body).not.toContain('cowork_');
    }
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain; version=0.0.4');
  });

  test('declares the HTTP, database, device, webhook and process metrics', async () => {
    const names = declared(await metricsText());
    for (const name of [
      'cowork_http_requests_total',
      'cowork_http_request_duration_seconds',
      'cowork_db_query_duration_seconds',
      'cowork_db_query_errors_total',
      'cowork_db_pool_connections_in_use',
      'cowork_db_pool_connections_open',
      'cowork_db_pool_connections_max',
      'cowork_db_pool_waiting',
      'cowork_database_up',
      'cowork_device_link_up',
      'cowork_devices',
      'cowork_device_commands_total',
      'cowork_device_command_ack_seconds',
      'cowork_device_sync_lagging',
      'cowork_device_sync_lag_oldest_seconds',
      'cowork_device_messages_dropped_total',
      'cowork_device_open_log_writes_total',
      'cowork_device_alarms_open',
      'cowork_webhook_deliveries_pending',
      'cowork_webhook_oldest_pending_seconds',
      'cowork_webhook_delivery_duration_seconds',
      'cowork_webhook_delivery_failures_total',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds',
      'process_resident_memory_bytes',
    ])
      expect(names, name).toContain(name);
  });

  test('requests are counted and timed by route pattern and status class, never by raw URL', async () => {
    const userInfo = { method: 'GET', route: endpoints.userInfo, status_class: '2xx' };
    const detail = { method: 'GET', route: `${deviceEndpoints.detail}/:id`, status_class: '4xx' };
    const unmatched = { method: 'GET', route: 'unmatched', status_class: '4xx' };
    const before = await metricsText();
    for (let i = 0; i < 3; i++) await callApi(t, admin, 'GET', endpoints.userInfo);
    expect((await callApi(t, admin, 'GET', `${deviceEndpoints.detail}/987654`)).status).toBe(404);
    expect((await callApi(t, admin, 'GET', '/api/no-such-route/4242')).status).toBe(404);
    const after = await metricsText();
    const moved = (name: string, labels: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('cowork_http_requests_total', userInfo)).toBe(3);
    expect(moved('cowork_http_request_duration_seconds_count', userInfo)).toBe(3);
    expect(moved('cowork_http_requests_total', detail)).toBe(1);
    expect(moved('cowork_http_requests_total', unmatched)).toBe(1);
    expect(after).not.toContain('987654');
    expect(after).not.toContain('no-such-route');
  });

  test('database statements are timed, failures counted, the pool reported', async () => {
    const before = await metricsText();
    await expect(t.db.execute(sql`select 1 / 0`)).rejects.toThrow();
    const after = await metricsText();
    expect(
      valueOf(after, 'cowork_db_query_errors_total') - valueOf(before, 'cowork_db_query_errors_total'),
    ).toBe(1);
    expect(valueOf(after, 'cowork_db_query_duration_seconds_count')).toBeGreaterThan(
      valueOf(before, 'cowork_db_query_duration_seconds_count'),
    );
    expect(valueOf(after, 'cowork_database_up')).toBe(1);
    expect(valueOf(after, 'cowork_db_pool_connections_max')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'cowork_db_pool_connections_open')).toBeGreaterThanOrEqual(1);
  });

  test("a device's connection, commands, drops, door events, alarms and sync lag show", async () => {
    const building = String(doors.room.buildingId);
    const before = await metricsText();
    const { d, id, sn } = await doors.registered('MET-1');
    expect(valueOf(await metricsText(), 'cowork_device_link_up')).toBe(1);
    await until(
      async () =>
        valueOf(await metricsText(), 'cowork_devices', { building_id: building, status: 'online' }) >=
        valueOf(before, 'cowork_devices', { building_id: building, status: 'online' }) + 1,
      'the device counted online in its building',
    );

    const opened = { type: 'open-door', fate: 'acked' };
    expect((await doors.post(deviceEndpoints.openDoor, { id })).statusCode).toBe(200);
    let text = await metricsText();
    expect(
      valueOf(text, 'cowork_device_commands_total', opened) -
        valueOf(before, 'cowork_device_commands_total', opened),
    ).toBe(1);
    expect(
      valueOf(text, 'cowork_device_command_ack_seconds_count', { type: 'open-door' }),
    ).toBeGreaterThanOrEqual(1);
    await until(
      async () =>
        valueOf(await metricsText(), 'cowork_device_open_log_writes_total', { result: 'success' }) >
        valueOf(before, 'cowork_device_open_log_writes_total', { result: 'success' }),
      'the remote opening counted as an open-log write',
    );

    await d.publishRaw('{not json');
    await until(
      async () =>
        valueOf(await metricsText(), 'cowork_device_messages_dropped_total', { reason: 'malformed' }) >
        valueOf(before, 'cowork_device_messages_dropped_total', { reason: 'malformed' }),
      'the malformed message counted as dropped',
    );

    await d.raiseAlarm('forced');
    await until(
      async () => valueOf(await metricsText(), 'cowork_device_alarms_open', { kind: 'forced' }) >= 1,
      'the alarm counted open',
    );

    await d.close();
    await until(async () => (await doors.pageOf(sn)).status === 'offline', 'the device offline');
    const refused = { type: 'open-door', fate: 'offline' };
    expect((await doors.post(deviceEndpoints.openDoor, { id })).statusCode).toBe(409);
    text = await metricsText();
    expect(
      valueOf(text, 'cowork_device_commands_total', refused) -
        valueOf(before, 'cowork_device_commands_total', refused),
    ).toBe(1);

    // A change the offline device has not received for a minute: it lags by that long.
    await t.db
      .update(devices)
      .set({
        accessVersion: sql`${devices.accessVersion} + 1`,
        accessChangedAt: sql`now() - interval '1 minute'`,
      })
      .where(eq(devices.id, id));
    await until(async () => {
      const now = await metricsText();
      return (
        valueOf(now, 'cowork_device_sync_lagging', { status: 'offline' }) >= 1 &&
        valueOf(now, 'cowork_device_sync_lag_oldest_seconds', { status: 'offline' }) >= 60
      );
    }, 'the lagging device and its lag');
  });

  test('webhook deliveries are timed, failures counted by endpoint, the queue shown', async () => {
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const endpoint = async (path: string) => {
      const res = await callApi<{ id: number }>(t, admin, 'POST', webhookApi.save, {
        name: `指标 ${path}`,
        kind: 'webhook',
        url: `${base}${path}`,
        events: ['member.created'],
        enabled: true,
      });
      expect(res.status, res.raw).toBe(200);
      return res.body.data.id;
    };
    await endpoint('/ok');
    const failing = await endpoint('/fail');
    const before = await metricsText();
    await t.db.transaction((tx) => recordEvent(tx, 'member.created', webhookEventExamples['member.created']));
    await until(() => hits.includes('/ok') && hits.includes('/fail'), 'both receivers called');
    await until(async () => {
      const now = await metricsText();
      const delivered = { outcome: 'delivered' };
      return (
        valueOf(now, 'cowork_webhook_delivery_duration_seconds_count', delivered) >
          valueOf(before, 'cowork_webhook_delivery_duration_seconds_count', delivered) &&
        valueOf(now, 'cowork_webhook_delivery_failures_total', { endpoint_id: String(failing) }) >= 1 &&
        // The failed one waits for its retry.
        valueOf(now, 'cowork_webhook_deliveries_pending') >= 1
      );
    }, 'the delivery, the failure and the queue counted');
  });

  test('process metrics are this process', async () => {
    const text = await metricsText();
    expect(valueOf(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(valueOf(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(samples(text).some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
  });

  test('the alert rules and the dashboard name only metrics that exist', async () => {
    const names = declared(await metricsText());
    const rulesText = readFileSync(new URL('alerts.yml', docs), 'utf8');
    const dashboardText = readFileSync(new URL('grafana-dashboard.json', docs), 'utf8');
    const rules: { groups: { name: string; rules: Record<string, unknown>[] }[] } = parseYaml(rulesText);
    const alerts = rules.groups.flatMap((g) => g.rules);
    expect(alerts.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'CoworkInstanceDown',
        'CoworkDeviceLinkDown',
        'CoworkManyDevicesOffline',
        'CoworkDeviceSyncLag',
        'CoworkHighErrorRate',
        'CoworkEventLoopLag',
      ]),
    );
    for (const rule of alerts) {
      expect(typeof rule.expr, String(rule.alert)).toBe('string');
      expect(rule.labels, String(rule.alert)).toHaveProperty('severity');
      expect(rule.annotations, String(rule.alert)).toHaveProperty('summary');
    }
    const dashboard: { panels: { title: string; targets?: { expr: string }[] }[] } =
      JSON.parse(dashboardText);
    expect(dashboard.panels.length).toBeGreaterThan(5);
    const used = new Set(
      [...`${rulesText}\n${dashboardText}`.matchAll(/\b((?:cowork|nodejs|process)_[a-z_]*[a-z])\b/g)].map(
        (m) => m[1].replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    for (const name of used) expect(names, `${name} (used in docs/monitoring)`).toContain(name);
  });

  test('promtool accepts the rules, their unit tests pass, and the dashboard queries parse (when installed)', async () => {
    const promtool = (...args: string[]) =>
      spawnSync('promtool', args, { encoding: 'utf8', cwd: docs.pathname });
    const probe = promtool('--version');
    if (probe.error) {
      console.log(`promtool not run: ${probe.error.message} (Debian's prometheus package provides it)`);
      return;
    }
    for (const args of [
      ['check', 'rules', 'alerts.yml'],
      ['test', 'rules', 'alerts.test.yml'],
    ]) {
      const run = promtool(...args);
      expect(run.status, `promtool ${args.join(' ')}\n${run.stdout}\n${run.stderr}`).toBe(0);
    }
    // Each panel's query as a recording rule, Grafana's variables given values, for promtool to parse.
    const dashboard: { panels: { targets?: { expr: string }[] }[] } = JSON.parse(
      readFileSync(new URL('grafana-dashboard.json', docs), 'utf8'),
    );
    const exprs = dashboard.panels
      .flatMap((p) => p.targets ?? [])
      .map((target) =>
        target.expr
          .replaceAll('$__rate_interval', '5m')
          .replaceAll('$job', 'cowork')
          .replaceAll('$instance', '.*'),
      );
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cowork-dashboard-'));
    try {
      const file = path.join(dir, 'dashboard-queries.yml');
      const rules = exprs.map((expr, i) => ({ record: `dashboard:panel_${i}`, expr }));
      await writeFile(file, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
      const run = promtool('check', 'rules', file);
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(run.stdout).toContain(`SUCCESS: ${exprs.length} rules found`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('on METRICS_PORT', () => {
  const fetchFrom = (app: TestApp, path: string, headers: Record<string, string> = {}) => {
    const address = app.app.metrics.address();
    if (!address) throw new Error('the metrics listener is not listening');
    return fetch(`http://127.0.0.1:${address.port}${path}`, { headers });
  };

  test('its own listener serves /metrics; the main port answers 404', async () => {
    const port = await buildTestApp({
      seed: false,
      config: { metrics: { token: undefined, port: 0, host: '127.0.0.1' } },
    });
    const closed = port.close.bind(port);
    let open = true;
    onTestFinished(() => (open ? closed() : undefined));
    await port.app.ready();
    await callApi(port, {}, 'GET', endpoints.health);
    const res = await fetchFrom(port, '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await res.text();
    expect(valueOf(text, 'cowork_http_requests_total', { route: endpoints.health })).toBe(1);
    expect((await fetchFrom(port, '/api/health')).status).toBe(404);
    const main = await port.app.inject({ method: 'GET', url: '/metrics' });
    expect(main.statusCode).toBe(404);
    expect(main.body).not.toContain('cowork_');

    const address = port.app.metrics.address()!;
    open = false;
    await closed();
    await expect(fetch(`http://127.0.0.1:${address.port}/metrics`)).rejects.toThrow();
  });

  test('with METRICS_TOKEN as well, the listener asks for it too', async () => {
    const both = await buildTestApp({
      seed: false,
      config: { metrics: { token, port: 0, host: '127.0.0.1' } },
    });
    try {
      await both.app.ready();
      expect((await fetchFrom(both, '/metrics')).status).toBe(401);
      expect((await fetchFrom(both, '/metrics', { authorization: `Bearer ${token}` })).status).toBe(200);
      const main = await both.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(main.statusCode).toBe(200);
    } finally {
      await both.close();
    }
  });
});

describe('configuration', () => {
  const load = (env: Record<string, string>) => () => loadConfig({ NODE_ENV: 'test', ...env });

  test('METRICS_TOKEN, METRICS_PORT and METRICS_HOST are checked at start', () => {
    expect(load({})().metrics).toEqual({ token: undefined, port: undefined, host: '127.0.0.1' });
    expect(load({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5', METRICS_TOKEN: token })().metrics).toEqual({
      token,
      port: 9464,
      host: '10.0.0.5',
    });
    expect(load({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(load({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 32 characters/);
    expect(load({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be a port number/);
    expect(load({ PORT: '3000', METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
  });
});
