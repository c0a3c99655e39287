/**
 * The console as a browser meets it, and the server as `npm start` runs it (issue 15), three rounds
 * each: the compiled server started on an existing demo database (time to /api/ready, RSS after 5 s
 * idle), then Debian's Chromium at 4× CPU throttle on loopback: JavaScript transferred for /login and for
 * the first screen after signing in, counted from the first keystroke on the login page (compressed
 * bytes, as Chromium counts them), the login page's largest contentful paint, and the time from
 * pressing 登录 to the dashboard's numbers on screen; then the first screen opened cold by a
 * signed-in user (the session's cookies, an empty cache): the JavaScript asked for before the
 * dashboard's numbers show. Then the RSS once settled: 30 s after /api/ready,
 * when V8's memory reducer has given back the start's garbage; on PostgreSQL too when
 * BENCH_DATABASE_URL is set (a throw-away database made from it).
 * Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { summarise, type BenchResult } from './results.ts';
import { throwAwayDatabase } from './server.ts';

const ROUNDS = 3;
const PORT = 3457;
const IDLE_MS = 5_000;
const SETTLED_MS = 30_000;
const server = 'apps/server/dist/main.js';

/** The node options and script of `npm start` after its build step, so the bench runs what users run. */
const startScript = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } })
  .scripts.start;
const serverArgs = startScript.split('&& node ').at(-1)!.trim().split(/\s+/);
if (serverArgs.at(-1) !== server) throw new Error(`npm start no longer ends with \`node … ${server}\``);

async function startCompiled(dataDir: string, databaseUrl?: string) {
  const started = performance.now();
  const child = spawn(process.execPath, serverArgs, {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
    },
    stdio: 'ignore',
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${PORT}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, healthyMs: performance.now() - started };
}

const rssMb = (child: ChildProcess) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;

/** RSS of one server started on a database its first start seeded, read after idling each of `times` ms. */
async function rssAt(times: number[], dataDir: string, databaseUrl?: string) {
  const { child } = await startCompiled(dataDir, databaseUrl);
  const ready = performance.now();
  const readings = [];
  for (const ms of times) {
    await new Promise((r) => setTimeout(r, ready + ms - performance.now()));
    readings.push(rssMb(child));
  }
  await stop(child);
  return readings;
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Compressed bytes of the scripts a page receives while `work` runs, in KB. */
async function scriptKb(page: Page, work: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Set<string>();
  let bytes = 0;
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') scripts.add(e.requestId);
  });
  cdp.on('Network.loadingFinished', (e) => {
    if (scripts.has(e.requestId)) bytes += e.encodedDataLength;
  });
  await work();
  await cdp.detach();
  return bytes / 1024;
}

/** Where the dashboard's numbers show: the first screen is there once one is drawn. */
const DASHBOARD_NUMBER = '.dashboard .ant-statistic-content-value';

/**
 * Compressed KB of the scripts a signed-in user's browser asks for, with nothing cached, from
 * opening the console until the dashboard's numbers are drawn (in a fresh context holding only the
 * session's cookies and storage). A script asked for before then counts whole, however late it ends;
 * one asked for after (the dashboard's tables and chart, loaded after the numbers) does not.
 */
async function coldFirstScreenKb(browser: Browser, session: BrowserContext, base: string) {
  const context = await browser.newContext({
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    storageState: await session.storageState(),
  });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await cdp.send('Network.enable');
    const askedAt = new Map<string, number>();
    const scripts = new Set<string>();
    const received = new Map<string, number>();
    cdp.on('Network.requestWillBeSent', (e) => askedAt.set(e.requestId, e.wallTime * 1000));
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Script') scripts.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => received.set(e.requestId, e.encodedDataLength));
    // The page notes the wall-clock time the first number is drawn (the requests carry theirs).
    await page.addInitScript((selector) => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(selector)) return;
        (window as unknown as { numbersShownAt: number }).numbersShownAt = Date.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    }, DASHBOARD_NUMBER);
    await page.goto(`${base}/`);
    await page.locator(DASHBOARD_NUMBER).first().waitFor();
    await page.waitForLoadState('networkidle');
    const shownAt = await page.evaluate(
      () => (window as unknown as { numbersShownAt: number }).numbersShownAt,
    );
    let bytes = 0;
    for (const [id, length] of received) if (scripts.has(id) && askedAt.get(id)! <= shownAt) bytes += length;
    await cdp.detach();
    return bytes / 1024;
  } finally {
    await context.close();
  }
}

export async function webBench(): Promise<
  { results: BenchResult[]; rounds: Record<string, number>[] } | { skipped: string }
> {
  if (!existsSync(server) || !existsSync('apps/web/dist/index.html'))
    return { skipped: 'build first: npm run build' };
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const dataDir = mkdtempSync(join(tmpdir(), 'cowork-bench-web-'));
  // The first start migrates and loads the demo; the measured ones find it there.
  await stop((await startCompiled(dataDir)).child);

  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const rounds: Record<string, number>[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const { child, healthyMs } = await startCompiled(dataDir);
      await new Promise((r) => setTimeout(r, IDLE_MS));
      const idleRss = rssMb(child);
      const context = await browser.newContext({ locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      const base = `http://127.0.0.1:${PORT}`;
      const loginKb = await scriptKb(page, async () => {
        await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
      });
      const lcpMs = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => {
              const entries = list.getEntries();
              resolve(entries[entries.length - 1].startTime);
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }),
      );
      let signInMs = 0;
      // From the first keystroke: the login page loads the request layer as the user types.
      const firstScreenKb = await scriptKb(page, async () => {
        await page.getByPlaceholder(/用户名|账号/).fill('admin');
        await page.getByPlaceholder(/密码/).fill('Admin@123');
        const started = performance.now();
        await page.getByRole('button', { name: /登\s*录/ }).click();
        await page.locator(DASHBOARD_NUMBER).first().waitFor();
        signInMs = performance.now() - started;
        await page.waitForLoadState('networkidle');
      });
      const coldFirstScreen = await coldFirstScreenKb(browser, context, base);
      await context.close();
      await stop(child);
      rounds.push({ healthyMs, idleRss, loginKb, lcpMs, signInMs, firstScreenKb, coldFirstScreen });
    }
  } finally {
    await browser.close();
  }
  const [settledRss] = await rssAt([SETTLED_MS], dataDir);
  const settled = [summarise('start.settled-rss-mb', 'MB', [settledRss])];
  const postgresBase = process.env.BENCH_DATABASE_URL;
  if (postgresBase) {
    const database = await throwAwayDatabase(postgresBase);
    try {
      await stop((await startCompiled(dataDir, database.url)).child);
      const [idle, settledOnPostgres] = await rssAt([IDLE_MS, SETTLED_MS], dataDir, database.url);
      settled.push(
        summarise('start.postgres.idle-rss-mb', 'MB', [idle]),
        summarise('start.postgres.settled-rss-mb', 'MB', [settledOnPostgres]),
      );
    } finally {
      await database.drop();
    }
  }
  const of = (key: string) => rounds.map((r) => r[key]);
  return {
    rounds,
    results: [
      summarise('web.login.js-kb', 'KB', of('loginKb')),
      summarise('web.first-screen.js-kb', 'KB', of('firstScreenKb')),
      summarise('web.first-screen-cold.js-kb', 'KB', of('coldFirstScreen')),
      summarise('web.login.lcp-ms', 'ms', of('lcpMs')),
      summarise('web.signin-to-data-ms', 'ms', of('signInMs')),
      summarise('start.healthy-ms', 'ms', of('healthyMs')),
      summarise('start.idle-rss-mb', 'MB', of('idleRss')),
      ...settled,
    ],
  };
}
