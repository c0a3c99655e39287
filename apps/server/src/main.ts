/**
 * Starts the server: checks the environment, opens and migrates the database, prepares its data
 * (demo data into an empty one unless production), listens, and closes cleanly on SIGINT/SIGTERM.
 */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type DbHandle } from './db/client.ts';
import { claimDataDir, DataDirBusyError } from './db/pglite-control.ts';
import { startDemoDevices } from './device-link/demo.ts';
import { versionLabel, runningVersion } from './lib/version.ts';
import { demoSignIns } from './seed/demo.ts';
import { checkSecretKey, prepareData, StartupError } from './seed/prepare.ts';

async function main() {
  const config = loadConfig();
  // The embedded database's files are this process's alone while it runs; backups ask it for a copy.
  const pgliteClaim = config.databaseUrl ? undefined : await claimDataDir(config.dataDir, 'server');
  const handle: DbHandle = await openDatabase(config);
  try {
    const { migrations, prepared } = await handle.startUp(() => prepareData(handle.db, config));
    const app = await buildApp({ config, db: handle.db });
    for (const name of migrations) app.log.info({ migration: name }, `migration applied: ${name}`);
    pgliteClaim?.serve(handle);
    if (pgliteClaim?.problem)
      app.log.warn(
        `npm run backup cannot copy the embedded database while this server runs (${pgliteClaim.problem}): stop the server to back it up`,
      );
    // Before listening: an instance with another key would fail every device command.
    await checkSecretKey(handle.db, app.devices.box);
    if (prepared.seededDemo) app.log.info('demo data loaded into the empty database');
    if (prepared.createdAdministrator) app.log.info('administrator `admin` created from ADMIN_PASSWORD');
    if (prepared.adminPasswordIgnored)
      app.log.warn(
        'ADMIN_PASSWORD ignored: an administrator already exists (it only creates the first `admin` in an empty production database; change passwords in the console)',
      );
    if (prepared.recountedDays)
      app.log.info(
        { timeZone: config.timeZone },
        'business time zone changed: order day totals counted again',
      );

    let stopDemoDevices = async (): Promise<void> => undefined;
    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      try {
        await stopDemoDevices();
        await app.close();
      } finally {
        await handle.close();
        await pgliteClaim?.release();
      }
      process.exit(0);
    };
    process.once('SIGINT', () => void shutdown('SIGINT'));
    process.once('SIGTERM', () => void shutdown('SIGTERM'));

    await app.listen({ port: config.port, host: config.host });
    const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    const lines = [
      '',
      `cowork-admin ${versionLabel} is running at http://${shownHost}:${config.port}`,
      `API docs: http://${shownHost}:${config.port}/api/docs${config.apiDocsPublic ? '' : ' (signed-in staff only; API_DOCS=public opens them to anyone)'}`,
      `Database: ${handle.engine === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    ];
    const demoDevices = await startDemoDevices(app).catch((error: unknown) => {
      app.log.warn({ err: error }, 'demo devices could not start');
      return { count: 0, stop: async () => undefined };
    });
    stopDemoDevices = demoDevices.stop;
    const link = app.devices.status();
    lines.push(
      link.up
        ? `Door devices: MQTT at ${link.url}${link.mode === 'external' ? ' (MQTT_URL)' : ' (embedded broker, MQTT_PORT)'}`
        : `Door devices: link down (${link.detail ?? 'not started'}); ${link.mode === 'external' ? 'check MQTT_URL (the broker keeps being retried)' : 'set MQTT_PORT to a free port or MQTT_URL to a broker'}`,
    );
    if (demoDevices.count)
      lines.push(
        `Demo door devices: ${demoDevices.count} simulated in process (DEMO_DEVICES=0 turns them off)`,
      );
    if (app.devices.secretKeyGenerated)
      lines.push(
        `Secret key generated into ${app.devices.secretKeyGenerated} (set SECRET_KEY to keep it elsewhere; keep a copy: device secrets are encrypted with it)`,
      );
    if (config.deviceEnrolKeyIsDefault)
      lines.push(
        `Device enrolment key (development default; set DEVICE_ENROL_KEY): ${config.deviceEnrolKey}`,
      );
    if (config.nodeEnv !== 'production') {
      lines.push('Demo sign-ins:', ...demoSignIns.map((s) => `  ${s.username} / ${s.password}  (${s.role})`));
    }
    app.log.info({ ...runningVersion, port: config.port }, `cowork-admin ${versionLabel} started`);
    console.log(lines.join('\n') + '\n');
  } catch (err) {
    await handle.close().catch(() => undefined);
    await pgliteClaim?.release();
    throw err;
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof StartupError || err instanceof DataDirBusyError) {
    console.error(`cowork-admin cannot start: ${err.message}`);
  } else {
    console.error('cowork-admin cannot start:', err);
  }
  process.exit(1);
});
