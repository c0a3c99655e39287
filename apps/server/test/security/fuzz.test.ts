/**
 * Fuzz from the OpenAPI document (finding 8, kept): every documented operation gets hostile values
 * in its parameters and body fields — NUL, lone surrogates, numbers past PostgreSQL's integer,
 * `true` for ids, wrong types, huge texts — from a seeded generator (FUZZ_SEED, FUZZ_REQUESTS;
 * defaults 20261125 and 2000). None may answer 5xx; every write must be refused (4xx); and the
 * refused requests change no row of any business table.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildTestApp, demo, type TestApp } from '../helper.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2000);
/** Sign-in bookkeeping may move on refused sign-ins by design; everything else must not. */
const BOOKKEEPING = new Set([
  'auth_tokens',
  'sign_in_counters',
  'sign_in_known_addresses',
  'rate_limit_hits',
]);

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}
interface Operation {
  method: string;
  path: string;
  params: { name: string; in: 'query' | 'path'; schema: JsonSchema }[];
  body?: Record<string, JsonSchema>;
}

/** mulberry32: small, seedable, the same sequence on every machine. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] };
}

const typeOf = (schema: JsonSchema): string => {
  const type = schema.type ?? schema.anyOf?.find((s) => s.type && s.type !== 'null')?.type;
  return (Array.isArray(type) ? type.find((t) => t !== 'null') : type) ?? (schema.enum ? 'enum' : 'any');
};

const HOSTILE_TEXT = ['a\u0000b', '\ud800', 'x\udc00y', '\u0000'];
/** Values no field of the given type may accept. */
function hostileFor(schema: JsonSchema): readonly unknown[] {
  switch (typeOf(schema)) {
    case 'integer':
    case 'number':
      return [2_147_483_648, 1e20, '99999999999999999999', true, 'abc', -2_147_483_649, [1], { n: 1 }, '1e3'];
    case 'boolean':
      return ['yes', 2, 'a\u0000', [true]];
    case 'array':
      return ['not a list', [2_147_483_648], ['a\u0000'], [{}], 7];
    case 'object':
      return ['x', 5, [1], { '\u0000': 1 }];
    case 'enum':
      return ['not-a-choice\u0000', 9, '\ud800'];
    default:
      return [...HOSTILE_TEXT, 123.5, { x: 1 }];
  }
}

/** As a query string carries it. */
const asQuery = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * Percent-encoding that also sends a lone surrogate, as a hostile client can: its three bytes as
 * if it were a character (invalid UTF-8), where encodeURIComponent would throw.
 */
const encodeLoose = (text: string) =>
  Array.from(text, (char) => {
    const code = char.charCodeAt(0);
    if (char.length === 1 && code >= 0xd800 && code <= 0xdfff)
      return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    return encodeURIComponent(char);
  }).join('');

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.auth(...demo.admin);
});
afterAll(() => t?.close());

function operationsOf(doc: {
  paths: Record<string, Record<string, { parameters?: Operation['params']; requestBody?: unknown }>>;
}): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path');
      const body = (
        op.requestBody as { content?: { 'application/json'?: { schema?: JsonSchema } } } | undefined
      )?.content?.['application/json']?.schema?.properties;
      // Nothing to fuzz (logout, user-info): a request without input is not hostile.
      if (params.length === 0 && !body) continue;
      // Signing in and out would only end the fuzzing session; they have suites of their own.
      if (/\/token|logout/.test(path)) continue;
      ops.push({ method: method.toUpperCase(), path, params, body });
    }
  }
  return ops;
}

/** A digest of every business table: any row written, changed or removed shows. */
async function digest(): Promise<Record<string, string>> {
  const tables = (await t.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: { table_name: string }[] };
  const out: Record<string, string> = {};
  for (const { table_name: name } of tables.rows) {
    if (BOOKKEEPING.has(name) || name.startsWith('__')) continue;
    const res = (await t.db.execute(
      sql.raw(
        `select count(*)::text || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as d from "${name}" t`,
      ),
    )) as unknown as { rows: { d: string }[] };
    out[name] = res.rows[0].d;
  }
  return out;
}

test(`fuzz: ${REQUESTS} hostile requests from the OpenAPI document, seed ${SEED}`, async () => {
  const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
  const ops = operationsOf(doc);
  expect(ops.length).toBeGreaterThan(100);
  const random = generator(SEED);
  const before = await digest();
  const failures: string[] = [];

  for (let n = 0; n < REQUESTS; n += 1) {
    const op = random.pick(ops);
    const fields = [
      ...op.params.map((p) => ({ where: p.in, name: p.name, schema: p.schema })),
      ...Object.entries(op.body ?? {}).map(([name, schema]) => ({ where: 'body' as const, name, schema })),
    ];
    const target = random.pick(fields);
    const value = random.pick(hostileFor(target.schema));
    // Path parameters are always hostile too, so no request names a real record.
    let url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeLoose(asQuery(name === target.name ? value : random.pick(hostileFor({ type: 'integer' })))),
    );
    if (target.where === 'query') url += `?${encodeLoose(target.name)}=${encodeLoose(asQuery(value))}`;
    const res = await t.app.inject({
      method: op.method as 'GET',
      url,
      headers: admin,
      ...(op.body ? { payload: target.where === 'body' ? { [target.name]: value } : {} } : {}),
    });
    const what = `${op.method} ${url} ${target.where}.${target.name}=${JSON.stringify(value)} → ${res.statusCode}`;
    if (res.statusCode >= 500) failures.push(`${what} ${res.body.slice(0, 200)}`);
    else if (op.method !== 'GET' && res.statusCode < 400)
      failures.push(`${what} (a hostile write was accepted)`);
    else if (res.statusCode === 401) failures.push(`${what} (the fuzzing session ended)`);
  }

  expect(failures).toEqual([]);
  expect(await digest()).toEqual(before);
}, 300_000);
