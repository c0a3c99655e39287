/**
 * 设备管理: the console API for door devices, exactly as the device protocol's table fixes it (docs/devices.md)
 * (paths, bodies, answers), plus `detail` (last commands and dropped messages) and `link-status`
 * (the hardware screens' banner). Commands go through the device link (devices/link.ts) and answer
 * only once the device acked, or fail with a message naming the device within 6 s.
 *
 * Permissions: reading needs hardware:device:view; registering and every command :edit;
 * unregistering :remove; the open log hardware:log:view (or device view).
 */
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, gte, ilike, lt, lte, sql, type SQL } from 'drizzle-orm';
import { containing, escapeLike } from '../../lib/like.ts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_EDIT_PERMISSION,
  DEVICE_REMOVE_PERMISSION,
  DEVICE_SN_PATTERN,
  DEVICE_VIEW_PERMISSION,
  deviceEndpoints,
  deviceMessages,
  idOf,
  numeric,
  OPEN_DOOR_DEFAULT_S,
  OPEN_DOOR_MAX_S,
  OPEN_DOOR_MIN_S,
  OPEN_LOG_VIEW_PERMISSION,
  ADMIN_PASSWORD_MAX_DIGITS,
  ADMIN_PASSWORD_MIN_DIGITS,
  CARD_NO_PATTERN,
  MAX_ADMIN_PASSWORDS,
  MAX_CARD_RULES,
  maskPhone,
  openMethodLabels,
  openResultLabels,
} from '@cowork/contract';
import {
  deviceCommands,
  deviceEnrolments,
  deviceOpenLogs,
  devices,
  deviceStatusValues,
  openMethodValues,
  openResultValues,
  spaces,
} from '../../db/schema.ts';
import { deviceTotpKey, totpCode } from '../../devices/protocol.ts';
import { staffActor } from '../../devices/actors.ts';
import { isConsoleName } from '../../devices/console-identity.ts';
import { adminPasswordEntry, samePassword, sealSecretBox } from '../../devices/secrets-v11.ts';
import { audit } from '../../lib/audit.ts';
import {
  AppError,
  badRequest,
  conflict,
  envelope,
  notFound,
  ok,
  pageAndTotal,
  pageOf,
} from '../../lib/http.ts';
import { textOf } from '../../lib/unknown.ts';
import { parseTimeBound, toIso } from '../../lib/time.ts';
import { tableBatches, sendExcel, businessTime, type ExcelColumn } from '../../lib/excel-export.ts';
import { devicePlaces, deviceRecord, deviceRecords, pageParams } from './records.ts';
import { currentUser } from '../../plugins/auth.ts';

const tags = ['device'];
const idBody = z.object({ id: idOf('设备编号必须是正整数') });
const reason = z.string().trim().max(200, deviceMessages.reasonTooLong).optional();
const snSchema = z.string({ error: '请填写设备序列号' }).regex(DEVICE_SN_PATTERN, deviceMessages.snInvalid);
const nameSchema = z
  .string({ error: '请填写设备名称' })
  .trim()
  .min(1, '请填写设备名称')
  .max(50, '设备名称最多 50 个字符');
const spaceIdSchema = idOf('空间编号必须是正整数').nullish();
const time = z.string().nullable();

const commandRecord = z.object({
  id: z.string(),
  type: z.string(),
  byName: z.string().nullable(),
  reason: z.string().nullable(),
  state: z.string(),
  error: z.string().nullable(),
  sentAt: z.string(),
  answeredAt: time,
});

const openLogRecord = z.object({
  id: z.number(),
  deviceId: z.number().nullable(),
  sn: z.string(),
  deviceName: z.string().nullable(),
  method: z.enum(openMethodValues),
  credential: z.string().nullable(),
  result: z.enum(openResultValues),
  reason: z.string().nullable(),
  who: z.string().nullable(),
  at: z.string(),
});

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const timeBound = (label: string) =>
  z
    .string()
    .refine(
      (v) => (isDay(v) || z.iso.datetime({ offset: true }).safeParse(v).success) && parseTimeBound(v, false),
      {
        error: `${label}格式不正确，应为日期（如 2026-11-25）或带时区的时间`,
      },
    );

const openLogColumns: ExcelColumn<typeof deviceOpenLogs.$inferSelect>[] = [
  { header: '时间', value: (r) => businessTime(r.at), width: 20 },
  { header: '设备', value: (r) => r.deviceName ?? '（已注销）', width: 18 },
  { header: '序列号', value: (r) => r.sn, width: 18 },
  { header: '方式', value: (r) => openMethodLabels[r.method], width: 10 },
  { header: '凭证', value: (r) => (credentialOf(r) ? `****${credentialOf(r)}` : null), width: 10 },
  { header: '结果', value: (r) => openResultLabels[r.result], width: 8 },
  { header: '原因', value: (r) => r.reason, width: 20 },
  { header: '开门人', value: (r) => r.who, width: 16 },
];

/**
 * What the open log shows as the credential: a card's or code's last characters. A remote opening
 * has none (its device repeats the staff username it was sent, which is no credential): `who` names
 * the staff member instead.
 */
const credentialOf = (r: { method: string; credential: string | null }) =>
  r.method === 'remote' ? null : r.credential;

/** An sn that is the console's own MQTT username, refused at register (400 naming the field). */
const consoleSnTaken = (sn: string) =>
  `设备序列号“${sn}”与控制台连接 MQTT 代理所用的用户名相同，不能用作设备序列号；请给设备换一个序列号后重新上报`;

const iso = (value: Date | null) => (value ? toIso(value) : null);

/** A device's secret: 32 random bytes, base64url (the protocol's form). */
const newSecret = () => randomBytes(32).toString('base64url');

export const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const link = app.devices;
  const actorOf = staffActor;

  async function load(id: number) {
    const [row] = await app.db.select().from(devices).where(eq(devices.id, id));
    if (!row) throw notFound(deviceMessages.notFound);
    return row;
  }

  app.get(
    deviceEndpoints.linkStatus,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'The device link: up or down and why (the banner of the hardware screens)',
        response: {
          200: envelope(
            z.object({
              up: z.boolean(),
              mode: z.string(),
              url: z.string().nullable(),
              reason: z.string().nullable(),
            }),
          ),
        },
      },
    },
    async () => {
      const s = link.status();
      return ok({ up: s.up, mode: s.mode, url: s.url ?? null, reason: s.reason ?? null });
    },
  );

  app.get(
    deviceEndpoints.unPulledList,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'Devices that said hello with the enrolment key and are not registered',
        response: {
          200: envelope(
            z.array(
              z.object({
                sn: z.string(),
                model: z.string().nullable(),
                vendor: z.string().nullable(),
                firmware: z.string().nullable(),
                lastSeenAt: z.string(),
              }),
            ),
          ),
        },
      },
    },
    async () => {
      const rows = await app.db
        .select({
          sn: deviceEnrolments.sn,
          model: deviceEnrolments.model,
          vendor: deviceEnrolments.vendor,
          firmware: deviceEnrolments.firmware,
          lastSeenAt: deviceEnrolments.lastSeenAt,
        })
        .from(deviceEnrolments)
        .where(sql`not exists (select 1 from ${devices} where ${devices.sn} = ${deviceEnrolments.sn})`)
        .orderBy(desc(deviceEnrolments.lastSeenAt))
        .limit(500);
      return ok(rows.map((r) => ({ ...r, lastSeenAt: toIso(r.lastSeenAt) })));
    },
  );

  app.post(
    deviceEndpoints.register,
    {
      config: {
        permission: DEVICE_EDIT_PERMISSION,
        fieldLabels: { sn: '设备序列号', name: '设备名称', spaceId: '所属空间' },
      },
      schema: {
        tags,
        summary: 'Register a waiting device; answers its secret, the only time it is shown',
        body: z.object({ sn: snSchema, name: nameSchema, spaceId: spaceIdSchema }),
        response: { 200: envelope(z.object({ id: z.number(), sn: z.string(), secret: z.string() })) },
      },
    },
    async (request) => {
      const { sn, name, spaceId } = request.body;
      if (isConsoleName(app.config, sn)) throw badRequest(consoleSnTaken(sn));
      const secret = newSecret();
      const created = await app.db.transaction(async (tx) => {
        const [waiting] = await tx.select().from(deviceEnrolments).where(eq(deviceEnrolments.sn, sn));
        const [taken] = await tx.select({ id: devices.id }).from(devices).where(eq(devices.sn, sn));
        if (taken) throw conflict(deviceMessages.snTaken(sn));
        if (!waiting) throw badRequest(deviceMessages.notWaiting(sn));
        if (spaceId) {
          const [space] = await tx.select({ id: spaces.id }).from(spaces).where(eq(spaces.id, spaceId));
          if (!space) throw badRequest(deviceMessages.spaceNotFound);
        }
        const [row] = await tx
          .insert(devices)
          .values({
            sn,
            name,
            spaceId: spaceId ?? null,
            model: waiting.model,
            vendor: waiting.vendor,
            firmware: waiting.firmware,
            secret: link.box.seal(secret),
            createdBy: currentUser(request).id,
            updatedBy: currentUser(request).id,
          })
          .onConflictDoNothing({ target: devices.sn })
          .returning();
        if (!row) throw conflict(deviceMessages.snTaken(sn));
        await tx.delete(deviceEnrolments).where(eq(deviceEnrolments.sn, sn));
        await audit(
          request,
          {
            action: 'register',
            resource: 'device',
            resourceId: String(row.id),
            after: { sn, name, spaceId },
          },
          tx,
        );
        return row;
      });
      // Connected with the enrolment key until now: it must reconnect with its secret.
      link.kick(sn);
      return ok({ id: created.id, sn: created.sn, secret });
    },
  );

  app.post(
    deviceEndpoints.unregister,
    {
      config: { permission: DEVICE_REMOVE_PERMISSION },
      schema: {
        tags,
        summary: 'Unregister: the secret stops working at once and the device is disconnected',
        body: idBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const row = await load(request.body.id);
      await app.db.transaction(async (tx) => {
        await tx.delete(devices).where(eq(devices.id, row.id));
        await audit(
          request,
          {
            action: 'unregister',
            resource: 'device',
            resourceId: String(row.id),
            before: { sn: row.sn, name: row.name, spaceId: row.spaceId },
          },
          tx,
        );
      });
      link.kick(row.sn);
      return ok(null);
    },
  );

  app.get(
    deviceEndpoints.page,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'Devices, with live status and last seen',
        querystring: z.object({
          ...pageParams,
          sn: z.string().max(64).optional(),
          name: z.string().max(50).optional(),
          spaceId: idOf('空间编号必须是正整数').optional(),
          // The devices placed in this building's spaces (pickers offer one building's devices).
          buildingId: idOf('楼宇编号必须是正整数').optional(),
          status: z.enum(deviceStatusValues, { error: '状态只能是 online 或 offline' }).optional(),
        }),
        response: { 200: envelope(pageOf(deviceRecord)) },
      },
    },
    async (request) => {
      const q = request.query;
      const where: SQL[] = [];
      if (q.sn?.trim()) where.push(ilike(devices.sn, `${escapeLike(q.sn.trim())}%`));
      if (q.name?.trim()) where.push(containing(devices.name, q.name.trim()));
      if (q.spaceId) where.push(eq(devices.spaceId, q.spaceId));
      if (q.buildingId)
        where.push(sql`${devices.spaceId} in (select id from ${spaces} where building_id = ${q.buildingId})`);
      if (q.status) where.push(eq(devices.status, q.status));
      const condition = where.length ? and(...where) : undefined;
      return ok(
        await pageAndTotal(
          q,
          () => deviceRecords(app.db, condition, { limit: q.size, offset: (q.current - 1) * q.size }),
          () => app.db.select({ total: count() }).from(devices).where(condition),
        ),
      );
    },
  );

  app.get(
    `${deviceEndpoints.detail}/:id`,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'One device with its last 20 commands and what was dropped from it',
        params: z.object({ id: idOf('设备编号必须是正整数') }),
        response: {
          200: envelope(
            deviceRecord.extend({ lastDropReason: z.string().nullable(), commands: z.array(commandRecord) }),
          ),
        },
      },
    },
    async (request) => {
      const d = await load(request.params.id);
      const [record] = await deviceRecords(app.db, eq(devices.id, d.id));
      const commands = await app.db
        .select()
        .from(deviceCommands)
        .where(eq(deviceCommands.deviceId, d.id))
        .orderBy(desc(deviceCommands.sentAt))
        .limit(20);
      return ok({
        ...record,
        lastDropReason: d.lastDropReason,
        commands: commands.map((c) => ({
          id: c.id,
          type: c.type,
          byName: c.byName,
          reason: c.reason,
          state: c.state,
          error: c.error,
          sentAt: toIso(c.sentAt),
          answeredAt: iso(c.answeredAt),
        })),
      });
    },
  );

  app.post(
    deviceEndpoints.openDoor,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: { durationS: '开门时长' } },
      schema: {
        tags,
        summary: 'Open the door remotely; answers once the device acked',
        body: idBody.extend({
          durationS: numeric(
            z
              .number({ error: deviceMessages.durationInvalid })
              .int(deviceMessages.durationInvalid)
              .min(OPEN_DOOR_MIN_S, deviceMessages.durationInvalid)
              .max(OPEN_DOOR_MAX_S, deviceMessages.durationInvalid),
          ).default(OPEN_DOOR_DEFAULT_S),
        }),
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const device = await load(request.body.id);
      const actor = actorOf(request);
      await recorded(request, device, 'open-door', () =>
        link.command(
          device,
          'open-door',
          { durationS: request.body.durationS, by: currentUser(request).username },
          actor,
        ),
      );
      return ok(null);
    },
  );

  for (const [path, type] of [
    [deviceEndpoints.clear, 'clear'],
    [deviceEndpoints.refreshScreen, 'refresh-screen'],
  ] as const) {
    app.post(
      path,
      {
        config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: { reason: '操作原因' } },
        schema: {
          tags,
          summary: `Send ${type}; answers once the device acked`,
          body: idBody.extend({ reason }),
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        const device = await load(request.body.id);
        const actor = actorOf(request, request.body.reason);
        await recorded(
          request,
          device,
          type,
          () => link.command(device, type, {}, actor),
          request.body.reason,
        );
        return ok(null);
      },
    );
  }

  app.post(
    deviceEndpoints.resetConfig,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: { reason: '操作原因' } },
      schema: {
        tags,
        summary: 'Rotate the device secret; answers the new one once the device acked with its old one',
        body: idBody.extend({ reason }),
        response: { 200: envelope(z.object({ secret: z.string() })) },
      },
    },
    async (request) => {
      const device = await load(request.body.id);
      const secret = newSecret();
      const sealed = link.box.seal(secret);
      // Accepted by the broker from now on, so the device can reconnect with it right after its ack.
      await app.db.update(devices).set({ pendingSecret: sealed }).where(eq(devices.id, device.id));
      try {
        await recorded(
          request,
          device,
          'reset-config',
          () =>
            link.command(
              device,
              'reset-config',
              // v1.1 devices get the new secret sealed under their old one: it never travels in clear.
              device.protocol === '1.1'
                ? { secretBox: sealSecretBox(secret, link.box.open(device.secret)) }
                : { secret },
              actorOf(request, request.body.reason),
            ),
          request.body.reason,
        );
      } catch (error) {
        await app.db.update(devices).set({ pendingSecret: null }).where(eq(devices.id, device.id));
        throw error;
      }
      await app.db
        .update(devices)
        .set({ secret: sealed, pendingSecret: null, updatedAt: new Date() })
        .where(eq(devices.id, device.id));
      return ok({ secret });
    },
  );

  app.get(
    deviceEndpoints.totpCode,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: "The device's current door code and when it expires",
        querystring: idBody,
        response: { 200: envelope(z.object({ code: z.string(), expiresAt: z.number() })) },
      },
    },
    async (request) => {
      const device = await load(request.query.id);
      return ok(totpCode(deviceTotpKey(link.box.open(device.secret))));
    },
  );

  /**
   * Changes a device's admin passwords or card rules under a row lock (concurrent edits never lose
   * one another), audits it, and syncs the device at once; a device that cannot take it now gets it
   * when it is back (the answer says which).
   */
  async function editLists(
    request: FastifyRequest,
    id: number,
    action: string,
    what: string,
    change: (
      row: typeof devices.$inferSelect,
    ) => Partial<Pick<typeof devices.$inferSelect, 'adminPasswords' | 'cardRules'>>,
    detail: Record<string, unknown>,
  ) {
    const reasonText = textOf(request.body, 'reason');
    const device = await app.db.transaction(async (tx) => {
      const [row] = await tx.select().from(devices).where(eq(devices.id, id)).for('update');
      if (!row) throw notFound(deviceMessages.notFound);
      await tx
        .update(devices)
        .set({ ...change(row), updatedAt: new Date() })
        .where(eq(devices.id, id));
      await audit(
        request,
        {
          action,
          resource: 'device',
          resourceId: String(id),
          after: { sn: row.sn, name: row.name, ...detail, ...(reasonText ? { reason: reasonText } : {}) },
        },
        tx,
      );
      return row;
    });
    try {
      const acked = await link.syncDevice(device.id, actorOf(request, reasonText));
      const [after] = await app.db.select().from(devices).where(eq(devices.id, id));
      // Acked now; or nothing to send and it holds the latest (a sync started meanwhile, e.g.
      // after its hello, may have moved the version on: this change reached it all the same).
      const synced =
        acked.includes(device.id) || (after.status === 'online' && after.ackedVersion >= after.accessVersion);
      return { synced, pending: synced ? null : '设备离线', what };
    } catch (error) {
      return { synced: false, pending: error instanceof AppError ? error.message : '同步失败', what };
    }
  }

  /** The answer of a list change: whether the device has it, and the message saying so. */
  const listAnswer = z.object({ synced: z.boolean(), pending: z.string().nullable() });
  const answerOf = <T extends object = object>(
    result: { synced: boolean; pending: string | null; what: string },
    extra: T,
  ) =>
    ok(
      { synced: result.synced, pending: result.pending, ...extra },
      result.synced
        ? deviceMessages.listSynced(result.what)
        : deviceMessages.listPending(result.what, result.pending!),
    );

  const requiredReason = z
    .string({ error: deviceMessages.reasonRequired })
    .trim()
    .min(1, deviceMessages.reasonRequired)
    .max(200, deviceMessages.reasonTooLong);
  const passwordDigits = new RegExp(`^\\d{${ADMIN_PASSWORD_MIN_DIGITS},${ADMIN_PASSWORD_MAX_DIGITS}}$`);
  const listFieldLabels = {
    reason: '操作原因',
    password: '管理员密码',
    pwdId: '密码编号',
    cardNo: '卡号',
    validFrom: '生效时间',
    validTo: '失效时间',
  };
  const msTime = (label: string) =>
    numeric(
      z
        .number({ error: `请填写${label}` })
        .int(`${label}格式不正确`)
        .min(0)
        .max(8_640_000_000_000_000),
    );

  app.post(
    deviceEndpoints.adminPwdSave,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: listFieldLabels },
      schema: {
        tags,
        summary:
          'Adds an admin password (kept as SHA-256 for v1 devices and salted PBKDF2 for v1.1) and syncs the device',
        body: idBody.extend({
          password: z
            .string({ error: deviceMessages.passwordInvalid })
            .regex(passwordDigits, deviceMessages.passwordInvalid),
          reason: requiredReason,
        }),
        response: { 200: envelope(listAnswer.extend({ pwdId: z.string() })) },
      },
    },
    async (request) => {
      const { password } = request.body;
      const pwdId = `P${randomBytes(3).toString('hex').toUpperCase()}`;
      const entry = await adminPasswordEntry(pwdId, password);
      const result = await editLists(
        request,
        request.body.id,
        'admin-pwd-save',
        '管理员密码',
        (row) => {
          if (row.adminPasswords.some((p) => samePassword(p, password)))
            throw conflict(deviceMessages.passwordTaken);
          if (row.adminPasswords.length >= MAX_ADMIN_PASSWORDS) throw conflict(deviceMessages.passwordsFull);
          return { adminPasswords: [...row.adminPasswords, entry] };
        },
        { pwdId },
      );
      return answerOf(result, { pwdId });
    },
  );

  app.post(
    deviceEndpoints.adminPwdRemove,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: listFieldLabels },
      schema: {
        tags,
        summary: 'Removes an admin password and syncs the device',
        body: idBody.extend({ pwdId: z.string().min(1).max(32), reason: requiredReason }),
        response: { 200: envelope(listAnswer) },
      },
    },
    async (request) => {
      const { pwdId } = request.body;
      const result = await editLists(
        request,
        request.body.id,
        'admin-pwd-remove',
        '管理员密码',
        (row) => {
          if (!row.adminPasswords.some((p) => p.id === pwdId))
            throw notFound(deviceMessages.passwordNotFound);
          return { adminPasswords: row.adminPasswords.filter((p) => p.id !== pwdId) };
        },
        { pwdId },
      );
      return answerOf(result, {});
    },
  );

  app.post(
    deviceEndpoints.cardRuleSave,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: listFieldLabels },
      schema: {
        tags,
        summary: "Adds or replaces a card's rule and syncs the device",
        body: idBody
          .extend({
            cardNo: z
              .string({ error: deviceMessages.cardNoInvalid })
              .regex(CARD_NO_PATTERN, deviceMessages.cardNoInvalid),
            validFrom: msTime('生效时间'),
            validTo: msTime('失效时间'),
          })
          .refine((b) => b.validTo > b.validFrom, {
            error: deviceMessages.cardRangeInvalid,
            path: ['validTo'],
          }),
        response: { 200: envelope(listAnswer) },
      },
    },
    async (request) => {
      const { cardNo, validFrom, validTo } = request.body;
      const result = await editLists(
        request,
        request.body.id,
        'card-rule-save',
        '卡规则',
        (row) => {
          const others = row.cardRules.filter((r) => r.cardNo !== cardNo);
          if (others.length >= MAX_CARD_RULES) throw conflict(deviceMessages.cardRulesFull);
          return { cardRules: [...others, { cardNo, validFrom, validTo }] };
        },
        { cardNo, validFrom: new Date(validFrom).toISOString(), validTo: new Date(validTo).toISOString() },
      );
      return answerOf(result, {});
    },
  );

  app.post(
    deviceEndpoints.cardRuleRemove,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: listFieldLabels },
      schema: {
        tags,
        summary: "Removes a card's rule and syncs the device",
        body: idBody.extend({ cardNo: z.string().min(1).max(32) }),
        response: { 200: envelope(listAnswer) },
      },
    },
    async (request) => {
      const { cardNo } = request.body;
      const result = await editLists(
        request,
        request.body.id,
        'card-rule-remove',
        '卡规则',
        (row) => {
          if (!row.cardRules.some((r) => r.cardNo === cardNo))
            throw notFound(deviceMessages.cardRuleNotFound);
          return { cardRules: row.cardRules.filter((r) => r.cardNo !== cardNo) };
        },
        { cardNo },
      );
      return answerOf(result, {});
    },
  );

  app.get(
    deviceEndpoints.adminPwdList,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary:
          'The admin passwords last synced to the device (ids and SHA-256); needsReentry: saved before PBKDF2, so a v1.1 device does not get it until it is entered again',
        querystring: idBody,
        response: {
          200: envelope(z.array(z.object({ id: z.string(), sha256: z.string(), needsReentry: z.boolean() }))),
        },
      },
    },
    async (request) =>
      ok(
        (await load(request.query.id)).adminPasswords.map((p) => ({
          id: p.id,
          sha256: p.sha256,
          needsReentry: !p.pbkdf2,
        })),
      ),
  );

  app.get(
    deviceEndpoints.cardRuleList,
    {
      config: { permission: DEVICE_VIEW_PERMISSION },
      schema: {
        tags,
        summary: 'The card rules last synced to the device',
        querystring: idBody,
        response: {
          200: envelope(
            z.array(z.object({ cardNo: z.string(), validFrom: z.number(), validTo: z.number() })),
          ),
        },
      },
    },
    async (request) => ok((await load(request.query.id)).cardRules),
  );

  /** The open log's filters, shared by its page and its export. */
  const openLogQuery = z.object({
    deviceId: idOf('设备编号必须是正整数').optional(),
    sn: z.string().max(64).optional(),
    buildingId: idOf('楼宇编号必须是正整数').optional(),
    /** The devices in this space or under it. */
    spaceId: idOf('空间编号必须是正整数').optional(),
    /** A member's phone: eleven digits match that member, fewer any masked phone holding them. */
    phone: z
      .string()
      .trim()
      .regex(/^\d{0,11}$/, '手机号只能是数字，最多 11 位')
      .optional(),
    method: z.enum(openMethodValues, { error: '开门方式不正确' }).optional(),
    result: z.enum(openResultValues, { error: '开门结果不正确' }).optional(),
    /** A time with offset, or a day (Shanghai): `atTo` as a day includes the whole day. */
    atFrom: timeBound('开始时间').optional(),
    atTo: timeBound('结束时间').optional(),
  });

  function openLogConditions(q: z.infer<typeof openLogQuery>): SQL[] {
    const where: SQL[] = [];
    if (q.deviceId) where.push(eq(deviceOpenLogs.deviceId, q.deviceId));
    if (q.sn?.trim()) where.push(ilike(deviceOpenLogs.sn, `${escapeLike(q.sn.trim())}%`));
    if (q.method) where.push(eq(deviceOpenLogs.method, q.method));
    if (q.result) where.push(eq(deviceOpenLogs.result, q.result));
    if (q.atFrom) where.push(gte(deviceOpenLogs.at, parseTimeBound(q.atFrom, false)!));
    if (q.atTo) {
      // A day ends where the next begins; a time is included.
      const to = parseTimeBound(q.atTo, true)!;
      where.push(isDay(q.atTo) ? lt(deviceOpenLogs.at, to) : lte(deviceOpenLogs.at, to));
    }
    if (q.phone)
      where.push(
        q.phone.length === 11
          ? eq(deviceOpenLogs.who, maskPhone(q.phone))
          : ilike(deviceOpenLogs.who, `%${q.phone}%`),
      );
    if (q.spaceId)
      where.push(sql`${deviceOpenLogs.deviceId} in (
        with recursive tree(id) as (
          select ${q.spaceId}::int union all select s.id from spaces s join tree on s.parent_id = tree.id
        )
        select d.id from devices d join tree on d.space_id = tree.id)`);
    if (q.buildingId)
      where.push(sql`${deviceOpenLogs.deviceId} in (
        select d.id from devices d join spaces s on s.id = d.space_id where s.building_id = ${q.buildingId})`);
    return where;
  }

  const openLogOut = (r: typeof deviceOpenLogs.$inferSelect) => ({
    id: r.id,
    deviceId: r.deviceId,
    sn: r.sn,
    deviceName: r.deviceName,
    method: r.method,
    credential: credentialOf(r),
    result: r.result,
    reason: r.reason,
    who: r.who,
    at: toIso(r.at),
  });

  const openLogPermission = [OPEN_LOG_VIEW_PERMISSION, DEVICE_VIEW_PERMISSION];

  app.get(
    deviceEndpoints.openLogPage,
    {
      config: { permission: openLogPermission },
      schema: {
        tags,
        summary: '开门记录: door events, newest first',
        querystring: openLogQuery.extend(pageParams),
        response: { 200: envelope(pageOf(openLogRecord.extend({ spacePath: z.string().nullable() }))) },
      },
    },
    async (request) => {
      const q = request.query;
      const condition = and(...openLogConditions(q));
      const page = await pageAndTotal(
        q,
        () =>
          app.db
            .select()
            .from(deviceOpenLogs)
            .where(condition)
            .orderBy(desc(deviceOpenLogs.at), desc(deviceOpenLogs.id))
            .limit(q.size)
            .offset((q.current - 1) * q.size),
        () => app.db.select({ total: count() }).from(deviceOpenLogs).where(condition),
      );
      // Where each device is (楼宇 / 空间): every building has its 大堂闸机.
      const places = await devicePlaces(
        app.db,
        page.records.map((r) => r.deviceId),
      );
      return ok({
        ...page,
        records: page.records.map((r) => ({
          ...openLogOut(r),
          spacePath: (r.deviceId && places.get(r.deviceId)) || null,
        })),
      });
    },
  );

  app.get(
    deviceEndpoints.openLogExport,
    {
      config: { permission: openLogPermission },
      schema: {
        tags,
        summary: '开门记录 as Excel: the filters of its page, every row, streamed',
        querystring: openLogQuery,
      },
    },
    async (request, reply) => {
      const conditions = openLogConditions(request.query);
      return sendExcel(reply, {
        title: '开门记录',
        columns: openLogColumns,
        rows: tableBatches(app.db, deviceOpenLogs, conditions),
      });
    },
  );

  /** Runs a command and writes the audit entry, whether the device acked or not. */
  async function recorded(
    request: FastifyRequest,
    device: { id: number; sn: string; name: string },
    type: string,
    run: () => Promise<void>,
    why?: string,
  ) {
    let failure: string | undefined;
    try {
      await run();
    } catch (error) {
      failure = error instanceof AppError ? error.message : String(error);
      throw error;
    } finally {
      await audit(request, {
        action: type,
        resource: 'device',
        resourceId: String(device.id),
        after: {
          sn: device.sn,
          name: device.name,
          ...(why ? { reason: why } : {}),
          result: failure ?? 'acked',
        },
      });
    }
  }
};

export default deviceRoutes;
