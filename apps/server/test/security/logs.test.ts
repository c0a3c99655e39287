/**
 * Logs you can follow and may keep (issue 31): every answer carries its request id in X-Request-Id
 * (errors too), every line of a request carries it, a proxy's id is taken only from a trusted proxy
 * and only when it is a short plain token, and device commands are logged with the device and the
 * command id. A representative run (password sign-in and refresh, a member created by phone, an API
 * key used, the console's cookie, a device connecting with its secret, a remote opening, a failing
 * statement with a phone in it) is logged at trace level through the production logger, and no
 * password, full phone, token, cookie, key or device secret appears in any line.
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_SECRET,
  deviceEndpoints,
  endpoints,
  maskPhone,
  REQUEST_ID_HEADER,
  resourcePaths,
  type TokenResponse,
} from '@cowork/contract';
import { apiKeyEndpoints } from '@cowork/contract/resources/api-key';
import { companyStaffEndpoints } from '@cowork/contract/resources/company';
import { member } from '@cowork/contract/resources/member';
import { loggerOptions } from '../../src/plugins/logging.ts';
import { doorFixture } from '../device-fixture.ts';
import { basicAuth, createCompany, createRole, demo, testConfig, type TestApp } from '../helper.ts';

/** Every line the app logs, as written (JSON lines). */
const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});
const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

/** The proxy in front that TRUST_PROXY names (inject's requests come from it when told so). */
const PROXY = '10.9.8.7';
const doors = doorFixture({ enrolKey: 'logs-enrol-key-0123456789', inRoom: true });
const phone = '13987654321';
let t: TestApp;

beforeAll(async () => {
  const config = testConfig({ trustProxy: [PROXY], apiDocsPublic: false, logLevel: 'trace' });
  t = await doors.start({
    config: { trustProxy: [PROXY], apiDocsPublic: false },
    logger: { ...loggerOptions(config), stream },
  });
});
afterAll(() => doors.close());

describe('request ids', () => {
  const idOf = (res: { headers: Record<string, unknown> }) =>
    String(res.headers[REQUEST_ID_HEADER.toLowerCase()]);

  test('every answer carries one, errors included, each its own', async () => {
    const answers = [
      await t.app.inject({ method: 'GET', url: endpoints.health }),
      await t.app.inject({ method: 'GET', url: '/api/no-such-route' }),
      await t.app.inject({ method: 'GET', url: endpoints.userInfo }),
      await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' }),
      await t.app.inject({
        method: 'POST',
        url: endpoints.token,
        headers: { authorization: basicAuth },
        payload: {},
      }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 401, 400, 400]);
    const ids = answers.map(idOf);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a trusted proxy's X-Request-Id is kept; a client's, or an odd one, is not", async () => {
    const sent = (id: string, remoteAddress?: string) =>
      t.app.inject({
        method: 'GET',
        url: endpoints.health,
        headers: { [REQUEST_ID_HEADER]: id },
        ...(remoteAddress ? { remoteAddress } : {}),
      });
    expect(idOf(await sent('edge-7f3a9c1e2b', PROXY))).toBe('edge-7f3a9c1e2b');
    expect(idOf(await sent('5d41402abc4b2a76b9719d911017c592', PROXY))).toBe(
      '5d41402abc4b2a76b9719d911017c592',
    );
    // From anyone else: chosen by the client, so not believed.
    expect(idOf(await sent('edge-7f3a9c1e2b', '203.0.113.9'))).not.toBe('edge-7f3a9c1e2b');
    for (const odd of ['x'.repeat(65), 'a b', '../../etc/passwd', '"}{"level":60', '-leading'])
      expect(idOf(await sent(odd, PROXY))).toMatch(/^[0-9a-f]{16}$/);
  });

  test("each line of a request carries its id, a device command's its device and command id", async () => {
    const { id: deviceId } = await doors.registered('LOG-1');
    lines.length = 0;
    const res = await doors.post(deviceEndpoints.openDoor, { id: deviceId });
    expect(res.statusCode, res.body).toBe(200);
    const reqId = idOf(res);
    const mine = parsed().filter((l) => l.reqId === reqId);
    expect(mine.map((l) => l.msg)).toEqual(
      expect.arrayContaining(['incoming request', 'device command acked', 'request completed']),
    );
    expect(mine.find((l) => l.msg === 'device command acked')).toMatchObject({
      deviceId,
      type: 'open-door',
      fate: 'acked',
      commandId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    // Every line about a request (Fastify's own, and ours through request.log) names one.
    for (const line of parsed().filter((l) => l.req || l.res))
      expect(line.reqId, JSON.stringify(line)).toBeTruthy();
  });
});

describe('no secret in the log', () => {
  test('a representative run logs no password, full phone, token, cookie, API key or device secret', async () => {
    lines.length = 0;
    const secrets: Record<string, string> = { password: demo.admin[1], phone };

    // Sign-in with a password, in a form body and in a query string; a refresh in a query string.
    const signIn = await t.app.inject({
      method: 'POST',
      url: endpoints.token,
      headers: { authorization: basicAuth },
      payload: { grant_type: 'password', username: demo.admin[0], password: demo.admin[1] },
    });
    expect(signIn.statusCode).toBe(200);
    const pair = signIn.json<TokenResponse>();
    const query = new URLSearchParams({
      grant_type: 'password',
      username: demo.admin[0],
      password: demo.admin[1],
      client_id: ADMIN_CLIENT_ID,
      client_secret: ADMIN_CLIENT_SECRET,
    });
    expect((await t.app.inject({ method: 'POST', url: `${endpoints.token}?${query}` })).statusCode).toBe(200);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: `${endpoints.token}?${new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: pair.refresh_token,
        client_id: ADMIN_CLIENT_ID,
        client_secret: ADMIN_CLIENT_SECRET,
      })}`,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const renewed = refreshed.json<TokenResponse>();
    Object.assign(secrets, {
      accessToken: pair.access_token,
      refreshToken: pair.refresh_token,
      renewedAccess: renewed.access_token,
      renewedRefresh: renewed.refresh_token,
    });
    const admin = { authorization: `Bearer ${renewed.access_token}` };

    // The console's cookie opens the API docs (API_DOCS=staff).
    const docs = await t.app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { cookie: `access_token=${renewed.access_token}` },
    });
    expect(docs.statusCode).toBe(200);

    // A member created by phone (adding a company's staff makes one), then looked for by phone.
    const companyId = await createCompany(t.db, '日志测试有限公司');
    const added = await t.app.inject({
      method: 'POST',
      url: companyStaffEndpoints.save,
      headers: admin,
      payload: { companyId, name: '林日志', phone },
    });
    expect(added.statusCode, added.body).toBe(200);
    const found = await t.app.inject({
      method: 'GET',
      url: `${resourcePaths(member).page}?phone=${phone}`,
      headers: admin,
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.records[0]?.phone).toBe(phone);

    // An API key made and used.
    const roleId = await createRole(t.db, {
      code: 'log_key_role',
      name: '日志接口角色',
      permissions: ['user:member:view'],
    });
    const key = await t.app.inject({
      method: 'POST',
      url: apiKeyEndpoints.save,
      headers: admin,
      payload: { name: '日志测试密钥', roleId },
    });
    expect(key.statusCode, key.body).toBe(200);
    secrets.apiKey = key.json().data.key;
    const byKey = await t.app.inject({
      method: 'GET',
      url: `${resourcePaths(member).page}?phone=${phone}`,
      headers: { authorization: `Bearer ${secrets.apiKey}` },
    });
    expect(byKey.statusCode, byKey.body).toBe(200);

    // A device registered (its secret answered once), connecting with the secret and saying hello.
    const { d, id, secret } = await doors.registered('LOG-2');
    secrets.deviceSecret = secret;
    expect((await doors.post(deviceEndpoints.openDoor, { id })).statusCode).toBe(200);
    await d.close();

    // A statement failing with the phone in PostgreSQL's own message, logged as errors are.
    const error = await t.db.execute(sql`select ${phone}::int`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    t.app.log.error({ err: error }, 'statement failed');

    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(20);
    for (const [what, value] of Object.entries(secrets))
      expect(text, `${what} in the log`).not.toContain(value);
    expect(text).toContain(maskPhone(phone));
    expect(text).toContain('statement failed');
  });
});
