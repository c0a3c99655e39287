/**
 * Settings from the environment, checked once at start. A wrong value stops the server with a
 * message naming the variable.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_SECRET,
  checkNewPassword,
  DEFAULT_BUSINESS_TIME_ZONE,
  FIRMWARE_MAX_BYTES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  isTimeZone,
  REFRESH_TOKEN_TTL_SECONDS,
} from '@cowork/contract';
import { API_KEY_RATE_LIMIT } from '@cowork/contract/resources/api-key';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Relative paths are taken from where the command was typed: npm runs workspace scripts inside
 * apps/server but keeps the caller's directory in INIT_CWD, so `npm start` at the root uses ./data.
 */
const baseDir = () => process.env.INIT_CWD ?? process.cwd();

/** Open MQTT connections from one remote address the embedded broker admits by default. */
export const DEFAULT_MQTT_MAX_CONNECTIONS_PER_ADDRESS = 200;
/** From the embedded broker's TCP accept to a complete CONNECT (and the TLS handshake). */
export const MQTT_CONNECT_TIMEOUT_MS = 5_000;

const connectionCount = z.coerce
  .number({ error: 'must be a number of connections' })
  .int('must be a whole number')
  .min(1, 'must be at least 1');

const positiveSeconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .positive('must be greater than 0')
    .default(fallback);

const positiveMillis = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int('must be a whole number of milliseconds')
    .positive('must be greater than 0')
    .default(fallback);

const envSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
    .default('development'),
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(1, 'must be from 1 to 65535')
    .max(65535, 'must be from 1 to 65535')
    .default(3000),
  HOST: z.string().min(1, 'must not be empty').default('0.0.0.0'),
  /**
   * Where devices and browsers reach this server (firmware download links): unset, the listen
   * address, with this machine's first network address in place of a wildcard HOST.
   */
  PUBLIC_URL: z
    .url({ error: 'must be a URL such as https://console.example.com' })
    .regex(/^https?:\/\//, 'must start with http:// or https://')
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Opening a PostgreSQL connection, or waiting for a free one in the pool, gives up after this. */
  DATABASE_CONNECT_TIMEOUT_MS: positiveMillis(1500),
  /** One PostgreSQL statement gives up after this (the server cancels it; a dead link is dropped). */
  DATABASE_QUERY_TIMEOUT_MS: positiveMillis(1500),
  DATA_DIR: z.string().min(1, 'must not be empty').default('./data'),
  MQTT_URL: z.url({ error: 'must be a URL such as mqtt://host:1883' }).optional(),
  /** The embedded broker's port when MQTT_URL is unset. */
  MQTT_PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be from 0 to 65535')
    .max(65535, 'must be from 0 to 65535')
    .default(1883),
  /** The fleet enrolment key unregistered devices connect with (development default below). */
  DEVICE_ENROL_KEY: z
    .string()
    .min(16, 'must be at least 16 characters')
    // It is a device's MQTT password, and the embedded broker refuses a CONNECT over 4 KB.
    .max(1024, 'must be at most 1024 characters')
    .optional(),
  /** Encrypts secrets at rest (device secrets); unset: generated into DATA_DIR/secret.key. */
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Turns on the HTTP authentication/authorisation endpoints an external broker (EMQX) calls; the
   * broker sends it as `Authorization: Bearer …`. Unset: those endpoints answer 404.
   */
  MQTT_AUTH_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Start on an MQTT_URL broker that does not check device identity (production refuses otherwise). */
  MQTT_ALLOW_UNAUTHENTICATED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** The embedded broker's caps on open connections; unset total: derived from the descriptor limit. */
  MQTT_MAX_CONNECTIONS: connectionCount.optional(),
  MQTT_MAX_CONNECTIONS_PER_ADDRESS: connectionCount.default(DEFAULT_MQTT_MAX_CONNECTIONS_PER_ADDRESS),
  /** The embedded broker's TLS listener and the PEM files of its certificate and private key. */
  MQTT_TLS_PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(0, 'must be from 0 to 65535')
    .max(65535, 'must be from 0 to 65535')
    .optional(),
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  /** The server's MQTT client id on MQTT_URL (its persistent session); one per instance. */
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[^#+/\s]{1,128}$/, 'must be 1–128 characters without spaces, #, + or /')
    .optional(),
  /** Simulated demo door devices run in process with demo data (0 turns them off). */
  DEMO_DEVICES: z.coerce
    .number({ error: 'must be a number of devices' })
    .int('must be a whole number')
    .min(0, 'must be from 0 to 50')
    .max(50, 'must be from 0 to 50')
    .default(3),
  /** Where uploaded files live: `local` (DATA_DIR/uploads) or `s3` (an S3-compatible bucket). */
  STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name (3-63 of a-z 0-9 . -)')
    .optional(),
  S3_ENDPOINT: z.url({ error: 'must be a URL such as http://minio:9000' }).optional(),
  S3_REGION: z.string().min(1, 'must not be empty').default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1, 'must not be empty').optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1, 'must not be empty').optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** Prepended to every key, so one bucket can serve several deployments (e.g. `cowork/`). */
  S3_PREFIX: z
    .string()
    .regex(/^(?:[A-Za-z0-9_-]+\/)*$/, 'must be folder names ending in / (letters, digits, _ and -)')
    .default(''),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (value === undefined) return;
      const problem = adminPasswordProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  ACCESS_TOKEN_TTL: positiveSeconds(ACCESS_TOKEN_TTL_SECONDS),
  REFRESH_TOKEN_TTL: positiveSeconds(REFRESH_TOKEN_TTL_SECONDS),
  ADMIN_CLIENT_ID: z.string().min(1, 'must not be empty').default(ADMIN_CLIENT_ID),
  ADMIN_CLIENT_SECRET: z.string().min(1, 'must not be empty').default(ADMIN_CLIENT_SECRET),
  WEB_DIST: z.string().min(1, 'must not be empty').optional(),
  /** Who may read /api/docs: `public` anyone, `staff` signed-in staff; unset: staff in production. */
  API_DOCS: z.enum(['public', 'staff'], { error: 'must be public or staff' }).optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  /** The operator's calendar (IANA zone): days of filters, 首页, order numbers; times as shown. */
  BUSINESS_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai')
    .default(DEFAULT_BUSINESS_TIME_ZONE),
  /** A request whose headers and body have not all arrived after this is cut (slow-body clients). */
  REQUEST_TIMEOUT_MS: positiveMillis(60_000),
  API_KEY_RATE_LIMIT: z.coerce
    .number({ error: 'must be a number of calls per minute' })
    .int('must be a whole number')
    .positive('must be greater than 0')
    .default(API_KEY_RATE_LIMIT),
  /** Webhooks and group robots may be sent to loopback and private addresses (on-premise receivers, tests). */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** `Authorization: Bearer …` that /metrics asks for (unset: /metrics answers only on METRICS_PORT). */
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters').optional(),
  /** A listener of its own for /metrics, on METRICS_HOST (unset: none). */
  METRICS_PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number')
    .min(1, 'must be from 1 to 65535')
    .max(65535, 'must be from 1 to 65535')
    .optional(),
  METRICS_HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  /** Which proxies in front may set X-Forwarded-For: false, a number of hops, or their addresses. */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (parsed === undefined) {
        ctx.addIssue({
          code: 'custom',
          message:
            'must be false, true (one proxy), a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges',
        });
        return z.NEVER;
      }
      return parsed;
    }),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** PUBLIC_URL without a trailing slash, or the listen address (see publicUrlOf). */
  publicUrl: string;
  /** The largest firmware file accepted (FIRMWARE_MAX_BYTES; tests shorten it). */
  firmwareMaxBytes: number;
  databaseUrl: string | undefined;
  databaseConnectTimeoutMs: number;
  databaseQueryTimeoutMs: number;
  dataDir: string;
  mqttUrl: string | undefined;
  mqttPort: number;
  /** DEVICE_ENROL_KEY, or the development default (refused in production). */
  deviceEnrolKey: string;
  deviceEnrolKeyIsDefault: boolean;
  secretKey: string | undefined;
  mqttAuthToken: string | undefined;
  /** MQTT_ALLOW_UNAUTHENTICATED: production starts on a broker that does not check device identity. */
  mqttAllowUnauthenticated: boolean;
  /** The embedded broker's connection caps (unset total: derived from the descriptor limit, broker.ts). */
  mqttMaxConnections: number | undefined;
  mqttMaxConnectionsPerAddress: number;
  /** From the embedded broker's TCP accept to a complete CONNECT (tests lengthen it). */
  mqttConnectTimeoutMs: number;
  /** MQTT_TLS_PORT with its certificate and key (PEM text, read and checked at start). */
  mqttTls: { port: number; cert: string; key: string } | undefined;
  /** MQTT_CLIENT_ID, else `cowork-server.{host name}.{PORT}`: stable across restarts, not a valid sn. */
  mqttClientId: string;
  demoDevices: number;
  /** Where uploads are stored; several instances need `s3` (a shared bucket). */
  storage: StorageConfig;
  adminPassword: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  adminClientId: string;
  adminClientSecret: string;
  webDist: string;
  /** /api/docs and its JSON for anyone (API_DOCS=public, the default outside production), else staff only. */
  apiDocsPublic: boolean;
  logLevel: string;
  /** BUSINESS_TIME_ZONE (contract time.ts). */
  timeZone: string;
  requestTimeoutMs: number;
  /**
   * Fastify's trustProxy: false (use the connection's address), a number of proxy hops, or the
   * proxies' addresses/ranges. Never plain `true`, which would believe the client's left-most entry.
   */
  trustProxy: TrustProxy;
  /** Requests per minute and address on the token endpoint (a second line behind login throttling). */
  tokenRateLimitPerMinute: number;
  /**
   * WEBHOOK_ALLOW_PRIVATE: webhook and robot URLs may point at loopback and private networks
   * (link-local and cloud metadata addresses stay refused).
   */
  webhookAllowPrivate: boolean;
  /** Calls per minute one API key (接口密钥) may make, across every instance. */
  apiKeyRateLimitPerMinute: number;
  /**
   * Who may read the Prometheus metrics (plugins/metrics.ts): `token`, the bearer METRICS_TOKEN asks
   * for wherever /metrics answers; `port`, a listener of its own on `host` (0: any free port, tests).
   * Neither set: /metrics answers 404.
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
}

export type TrustProxy = false | number | string[];

export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | undefined;
      region: string;
      /** Unset: the AWS SDK's own chain (environment, instance role, …). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
      prefix: string;
    };

/** proxy-addr's names for whole ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, or an address with a prefix length that fits it (10.0.0.0/8, fd00::/8). */
function isAddressOrRange(entry: string): boolean {
  const [address, prefix, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false`/`0` trusts nobody; `true`/`1` the one proxy directly in front; a number n the
 * last n hops; otherwise a comma-separated list of proxy addresses, CIDR ranges or proxy-addr's
 * names (loopback, linklocal, uniquelocal). Undefined when the value is none of these.
 */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'false' || text === '0') return false;
  if (text === 'true') return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((e) => e.trim());
  if (entries.some((e) => !PROXY_RANGE_NAMES.has(e) && !isAddressOrRange(e))) return undefined;
  return entries;
}

/**
 * The value for Fastify's trustProxy. Fastify refuses a bare hop count (it cannot tell the proxy in
 * front from a client that connects directly), so hops become a function trusting the last n.
 */
export const fastifyTrustProxy = (trust: TrustProxy) =>
  typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;

/**
 * MQTT_TLS_PORT with the files it needs, read and checked here, so a wrong path or a key that is not
 * the certificate's stops the start naming the variable instead of leaving the listener down.
 */
function mqttTlsOf(e: z.infer<typeof envSchema>): { tls: Config['mqttTls']; problems: string[] } {
  if (e.MQTT_TLS_PORT === undefined) {
    const stray = (['MQTT_TLS_CERT', 'MQTT_TLS_KEY'] as const).filter((name) => e[name]);
    return {
      tls: undefined,
      problems: stray.map((name) => `${name} is used only with MQTT_TLS_PORT: set both`),
    };
  }
  const problems: string[] = [];
  if (e.MQTT_URL)
    problems.push('MQTT_TLS_PORT is for the embedded broker: unset it with MQTT_URL (give that broker TLS)');
  if (e.MQTT_TLS_PORT !== 0 && e.MQTT_TLS_PORT === e.MQTT_PORT)
    problems.push('MQTT_TLS_PORT must differ from MQTT_PORT');
  const pem = (name: 'MQTT_TLS_CERT' | 'MQTT_TLS_KEY', what: string, check: (text: string) => unknown) => {
    const file = e[name];
    if (!file)
      return void problems.push(`${name} is required with MQTT_TLS_PORT: the path of the ${what} (PEM)`);
    let text: string;
    try {
      text = readFileSync(path.resolve(baseDir(), file), 'utf8');
    } catch (error) {
      return void problems.push(`${name} cannot be read (${error instanceof Error ? error.message : file})`);
    }
    try {
      check(text);
      return text;
    } catch {
      return void problems.push(`${name} (${file}) is not a PEM ${what}`);
    }
  };
  const cert = pem('MQTT_TLS_CERT', 'certificate', (text) => new X509Certificate(text));
  const key = pem('MQTT_TLS_KEY', 'private key', (text) => createPrivateKey(text));
  if (cert && key) {
    try {
      createSecureContext({ cert, key });
    } catch {
      problems.push('MQTT_TLS_KEY is not the private key of MQTT_TLS_CERT');
    }
  }
  if (problems.length > 0 || !cert || !key) return { tls: undefined, problems };
  return { tls: { port: e.MQTT_TLS_PORT, cert, key }, problems };
}

/**
 * The address devices are given when PUBLIC_URL is unset: the listen address, or, listening on every
 * interface, this machine's first external IPv4 address (127.0.0.1 without one).
 */
export function publicUrlOf(host: string, port: number): string {
  let address = host;
  if (host === '0.0.0.0' || host === '::') {
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((i) => i && i.family === 'IPv4' && !i.internal);
    address = external?.address ?? '127.0.0.1';
  }
  return `http://${isIP(address) === 6 ? `[${address}]` : address}:${port}`;
}

/** Printed at start in development, like the demo sign-ins; production must set its own. */
export const DEVELOPMENT_ENROL_KEY = 'cowork-dev-enrol-key';

/** How to make a key for SECRET_KEY, DEVICE_ENROL_KEY or MQTT_AUTH_TOKEN, said wherever one is missing. */
const MAKE_KEY = 'make one with `openssl rand -base64 48`';

/**
 * The first administrator's password: the staff rule (contract checkNewPassword: 8 to 64 characters
 * mixing two kinds, no `password`), and, as it opens everything from the first start, without
 * `admin` in it either (the demo's Admin@123 is printed in the README).
 */
export function adminPasswordProblem(value: string): string | undefined {
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return 'must be 8 to 64 characters';
  if (checkNewPassword(value) || /admin/i.test(value))
    return 'is too easy to guess: use 8 to 64 characters mixing at least two of letters, digits and symbols, without "password" or "admin" (e.g. `openssl rand -base64 18`)';
  return undefined;
}

/**
 * What production needs set: the keys that must be the same on every instance have no usable
 * default there (a generated or public one would differ between instances or be known to all).
 */
function productionProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (!e.SECRET_KEY)
    problems.push(
      `SECRET_KEY is required in production: set the same key of 32 or more characters on every instance (${MAKE_KEY}; keep a copy, device secrets are encrypted with it)`,
    );
  if (!e.DEVICE_ENROL_KEY || e.DEVICE_ENROL_KEY === DEVELOPMENT_ENROL_KEY)
    problems.push(
      `DEVICE_ENROL_KEY is required in production and must not be the development default, which is public: set the key your devices are given, the same on every instance (${MAKE_KEY})`,
    );
  return problems;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and checks the environment; throws ConfigError naming every wrong variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable counts as unset, as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ConfigError(`Invalid environment: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  const missing = [
    e.STORAGE === 's3' && !e.S3_BUCKET && 'S3_BUCKET is required when STORAGE=s3',
    !e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY &&
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
  ].filter(Boolean);
  const mqttTls = mqttTlsOf(e);
  missing.push(...mqttTls.problems);
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT)
    missing.push('METRICS_PORT must differ from PORT (the metrics have a listener of their own)');
  if (e.NODE_ENV === 'production') missing.push(...productionProblems(e));
  if (missing.length > 0) throw new ConfigError(`Invalid environment: ${missing.join('; ')}`);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, '') ?? publicUrlOf(e.HOST, e.PORT),
    firmwareMaxBytes: FIRMWARE_MAX_BYTES,
    databaseUrl: e.DATABASE_URL,
    databaseConnectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    databaseQueryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
    dataDir: path.resolve(baseDir(), e.DATA_DIR),
    mqttUrl: e.MQTT_URL,
    mqttPort: e.MQTT_PORT,
    deviceEnrolKey: e.DEVICE_ENROL_KEY ?? DEVELOPMENT_ENROL_KEY,
    deviceEnrolKeyIsDefault: e.DEVICE_ENROL_KEY === undefined,
    secretKey: e.SECRET_KEY,
    mqttAuthToken: e.MQTT_AUTH_TOKEN,
    mqttAllowUnauthenticated: e.MQTT_ALLOW_UNAUTHENTICATED,
    mqttMaxConnections: e.MQTT_MAX_CONNECTIONS,
    mqttMaxConnectionsPerAddress: e.MQTT_MAX_CONNECTIONS_PER_ADDRESS,
    mqttConnectTimeoutMs: MQTT_CONNECT_TIMEOUT_MS,
    mqttTls: mqttTls.tls,
    mqttClientId:
      e.MQTT_CLIENT_ID ?? `cowork-server.${os.hostname().replace(/[^A-Za-z0-9_-]/g, '_')}.${e.PORT}`,
    demoDevices: e.DEMO_DEVICES,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            bucket: e.S3_BUCKET!,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION,
            credentials:
              e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
                ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
                : undefined,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            prefix: e.S3_PREFIX,
          }
        : { kind: 'local' },
    adminPassword: e.ADMIN_PASSWORD,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    adminClientId: e.ADMIN_CLIENT_ID,
    adminClientSecret: e.ADMIN_CLIENT_SECRET,
    webDist: e.WEB_DIST ? path.resolve(baseDir(), e.WEB_DIST) : path.resolve(serverDir, '../web/dist'),
    apiDocsPublic: (e.API_DOCS ?? (e.NODE_ENV === 'production' ? 'staff' : 'public')) === 'public',
    logLevel: e.LOG_LEVEL,
    timeZone: e.BUSINESS_TIME_ZONE,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    trustProxy: e.TRUST_PROXY,
    tokenRateLimitPerMinute: 60,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    apiKeyRateLimitPerMinute: e.API_KEY_RATE_LIMIT,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
  };
}
