/**
 * A device's admin passwords and card rules: listed as last synced, and changed under a row lock,
 * audited and synced to the device at once; a device that cannot take a change now gets it when it
 * is back, and the answer says which.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_EDIT_PERMISSION,
  DEVICE_VIEW_PERMISSION,
  MAX_ADMIN_PASSWORDS,
  MAX_CARD_RULES,
  adminPasswordRemoveBody,
  adminPasswordRow,
  adminPasswordSaveBody,
  adminPasswordSaved,
  cardRuleRemoveBody,
  cardRuleRow,
  cardRuleSaveBody,
  deviceEndpoints,
  deviceFieldLabels,
  deviceIdBody,
  deviceListChanged,
  deviceMessages,
} from '@cowork/contract';
import { devices } from '../../db/schema.ts';
import { staffActor } from '../../device-link/actors.ts';
import { adminPasswordEntry, samePassword } from '../../device-link/secrets-v11.ts';
import { audit } from '../../lib/audit.ts';
import { spaceInKeyBuildings } from '../../lib/building-scope.ts';
import { AppError, conflict, envelope, notFound, ok } from '../../lib/http.ts';
import { deviceById } from './records.ts';

const tags = ['device'];
const fieldLabels = deviceFieldLabels.lists;

type DeviceRow = typeof devices.$inferSelect;
type ListChange = Partial<Pick<DeviceRow, 'adminPasswords' | 'cardRules'>>;

/** A list change as asked: which list (its name in the answer), the audit action and detail. */
interface ListEdit {
  id: number;
  action: string;
  what: string;
  reason?: string;
  detail: Record<string, unknown>;
  /** The device's lists after the change, or the error refusing it. */
  change: (row: DeviceRow) => ListChange;
}

/** Whether the device has the change, or why not yet. */
type Delivery = { synced: true } | { synced: false; pending: string };

/**
 * Changes a device's lists under a row lock (concurrent edits never lose one another), audits it,
 * and syncs the device at once.
 */
async function editLists(request: FastifyRequest, edit: ListEdit): Promise<Delivery> {
  const { db, devices: link } = request.server;
  const device = await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(devices)
      .where(and(eq(devices.id, edit.id), spaceInKeyBuildings(request, devices.spaceId)))
      .for('update');
    if (!row) throw notFound(deviceMessages.notFound);
    await tx
      .update(devices)
      .set({ ...edit.change(row), updatedAt: new Date() })
      .where(eq(devices.id, edit.id));
    await audit(
      request,
      {
        action: edit.action,
        resource: 'device',
        resourceId: String(edit.id),
        after: {
          sn: row.sn,
          name: row.name,
          ...edit.detail,
          ...(edit.reason ? { reason: edit.reason } : {}),
        },
      },
      tx,
    );
    return row;
  });
  try {
    const acked = await link.syncDevice(device.id, staffActor(request, edit.reason));
    const [after] = await db.select().from(devices).where(eq(devices.id, edit.id));
    // Acked now; or nothing to send and it holds the latest (a sync started meanwhile, e.g.
    // after its hello, may have moved the version on: this change reached it all the same).
    const synced =
      acked.includes(device.id) || (after.status === 'online' && after.ackedVersion >= after.accessVersion);
    return synced ? { synced } : { synced, pending: '设备离线' };
  } catch (error) {
    return { synced: false, pending: error instanceof AppError ? error.message : '同步失败' };
  }
}

/** The answer of a list change: whether the device has it, and the message saying so. */
const answerOf = <T extends object>(what: string, delivery: Delivery, extra: T) =>
  delivery.synced
    ? ok({ synced: true, pending: null, ...extra }, deviceMessages.listSynced(what))
    : ok(
        { synced: false, pending: delivery.pending, ...extra },
        deviceMessages.listPending(what, delivery.pending),
      );

const passwords = '管理员密码';
const cardRules = '卡规则';

export const accessListRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    deviceEndpoints.adminPwdSave,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary:
          'Adds an admin password (kept as SHA-256 for v1 devices and salted PBKDF2 for v1.1) and syncs the device',
        body: adminPasswordSaveBody,
        response: { 200: envelope(adminPasswordSaved) },
      },
    },
    async (request) => {
      const { id, password, reason } = request.body;
      const pwdId = `P${randomBytes(3).toString('hex').toUpperCase()}`;
      const entry = await adminPasswordEntry(pwdId, password);
      const delivery = await editLists(request, {
        id,
        action: 'admin-pwd-save',
        what: passwords,
        reason,
        detail: { pwdId },
        change: (row) => {
          if (row.adminPasswords.some((p) => samePassword(p, password)))
            throw conflict(deviceMessages.passwordTaken);
          if (row.adminPasswords.length >= MAX_ADMIN_PASSWORDS) throw conflict(deviceMessages.passwordsFull);
          return { adminPasswords: [...row.adminPasswords, entry] };
        },
      });
      return answerOf(passwords, delivery, { pwdId });
    },
  );

  app.post(
    deviceEndpoints.adminPwdRemove,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: 'Removes an admin password and syncs the device',
        body: adminPasswordRemoveBody,
        response: { 200: envelope(deviceListChanged) },
      },
    },
    async (request) => {
      const { id, pwdId, reason } = request.body;
      const delivery = await editLists(request, {
        id,
        action: 'admin-pwd-remove',
        what: passwords,
        reason,
        detail: { pwdId },
        change: (row) => {
          if (!row.adminPasswords.some((p) => p.id === pwdId))
            throw notFound(deviceMessages.passwordNotFound);
          return { adminPasswords: row.adminPasswords.filter((p) => p.id !== pwdId) };
        },
      });
      return answerOf(passwords, delivery, {});
    },
  );

  app.post(
    deviceEndpoints.cardRuleSave,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: "Adds or replaces a card's rule and syncs the device",
        body: cardRuleSaveBody,
        response: { 200: envelope(deviceListChanged) },
      },
    },
    async (request) => {
      const { id, cardNo, validFrom, validTo } = request.body;
      const delivery = await editLists(request, {
        id,
        action: 'card-rule-save',
        what: cardRules,
        detail: {
          cardNo,
          validFrom: new Date(validFrom).toISOString(),
          validTo: new Date(validTo).toISOString(),
        },
        change: (row) => {
          const others = row.cardRules.filter((r) => r.cardNo !== cardNo);
          if (others.length >= MAX_CARD_RULES) throw conflict(deviceMessages.cardRulesFull);
          return { cardRules: [...others, { cardNo, validFrom, validTo }] };
        },
      });
      return answerOf(cardRules, delivery, {});
    },
  );

  app.post(
    deviceEndpoints.cardRuleRemove,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels },
      schema: {
        tags,
        summary: "Removes a card's rule and syncs the device",
        body: cardRuleRemoveBody,
        response: { 200: envelope(deviceListChanged) },
      },
    },
    async (request) => {
      const { id, cardNo } = request.body;
      const delivery = await editLists(request, {
        id,
        action: 'card-rule-remove',
        what: cardRules,
        detail: { cardNo },
        change: (row) => {
          if (!row.cardRules.some((r) => r.cardNo === cardNo))
            throw notFound(deviceMessages.cardRuleNotFound);
          return { cardRules: row.cardRules.filter((r) => r.cardNo !== cardNo) };
        },
      });
      return answerOf(cardRules, delivery, {});
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
        querystring: deviceIdBody,
        response: { 200: envelope(z.array(adminPasswordRow)) },
      },
    },
    async (request) =>
      ok(
        (await deviceById(app.db, request.query.id, request)).adminPasswords.map((p) => ({
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
        querystring: deviceIdBody,
        response: { 200: envelope(z.array(cardRuleRow)) },
      },
    },
    async (request) => ok((await deviceById(app.db, request.query.id, request)).cardRules),
  );
};
