/** The one way writes are recorded: who, when, what, before and after. */
import type { FastifyRequest } from 'fastify';
import type { Executor } from '../db/client.ts';
import { auditLogs } from '../db/schema.ts';
import { toIso } from './time.ts';

export interface AuditEntry {
  action: string;
  resource: string;
  resourceId?: string | number | null;
  before?: unknown;
  after?: unknown;
  /** Defaults to the signed-in caller; given where there is none yet (sign-in). */
  actorId?: number | null;
}

/** Fields never written to the log, whatever a caller passes as before/after. */
const SECRET_KEYS = new Set(['password', 'passwordHash', 'newPassword', 'tokenHash', 'totpSecret']);

function redact(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return toIso(value);
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !SECRET_KEYS.has(k))
        .map(([k, v]) => [k, redact(v)]),
    );
  }
  return value;
}

const rowOf = (request: FastifyRequest, entry: AuditEntry) => ({
  actorId: entry.actorId !== undefined ? entry.actorId : (request.user?.id ?? null),
  // A write made with an API key: its creator is the actor, the key is named beside them (the
  // 操作日志 shows 接口密钥：<name>); the name stays should the key be removed.
  apiKeyId: request.user?.apiKey?.id ?? null,
  apiKeyName: request.user?.apiKey?.name ?? null,
  action: entry.action,
  resource: entry.resource,
  resourceId: entry.resourceId === undefined || entry.resourceId === null ? null : String(entry.resourceId),
  before: redact(entry.before),
  after: redact(entry.after),
  ip: request.ip,
});

/** Records one write. Pass the transaction as `db` so the entry commits with the change. */
export async function audit(request: FastifyRequest, entry: AuditEntry, db: Executor = request.server.db) {
  await db.insert(auditLogs).values(rowOf(request, entry));
}

/** Records many writes of one request in one statement (the rows of an import). */
export async function auditMany(
  request: FastifyRequest,
  entries: AuditEntry[],
  db: Executor = request.server.db,
) {
  if (entries.length > 0) await db.insert(auditLogs).values(entries.map((entry) => rowOf(request, entry)));
}
