/**
 * Commands staff send a device (远程开门, 清除, 刷新屏幕, 重置配置, 重启): each goes through the device link
 * and answers only once the device acked, or fails with a message naming the device within 6 s.
 * Every one is audited with its outcome.
 */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEVICE_EDIT_PERMISSION,
  deviceCommandBody,
  deviceEndpoints,
  deviceFieldLabels,
  deviceMessages,
  deviceOpenDoorBody,
  deviceSecretReset,
  type DeviceCommand,
} from '@cowork/contract';
import { devices } from '../../db/schema.ts';
import { staffActor } from '../../device-link/actors.ts';
import { sealSecretBox } from '../../device-link/secrets-v11.ts';
import { audit } from '../../lib/audit.ts';
import { AppError, conflict, envelope, ok } from '../../lib/http.ts';
import { currentUser } from '../../plugins/auth.ts';
import { refuseIfLockedDown } from './lockdown.ts';
import { deviceById } from './records.ts';
import { newDeviceSecret } from './registration.ts';

const tags = ['device'];

type Device = Awaited<ReturnType<typeof deviceById>>;

/**
 * Sends a command and waits for the device's ack; the audit entry records the outcome, acked or
 * the failure's message, either way.
 */
async function sendAudited(request: FastifyRequest, device: Device, command: DeviceCommand, reason?: string) {
  let failure: string | undefined;
  try {
    await request.server.devices.command(device, command, staffActor(request, reason));
  } catch (error) {
    failure = error instanceof AppError ? error.message : String(error);
    throw error;
  } finally {
    await audit(request, {
      action: command.type,
      resource: 'device',
      resourceId: String(device.id),
      after: {
        sn: device.sn,
        name: device.name,
        ...(reason ? { reason } : {}),
        result: failure ?? 'acked',
      },
    });
  }
}

export const commandRoutes: FastifyPluginAsyncZod = async (app) => {
  const link = app.devices;

  app.post(
    deviceEndpoints.openDoor,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: deviceFieldLabels.openDoor },
      schema: {
        tags,
        summary: 'Open the door remotely; answers once the device acked',
        body: deviceOpenDoorBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const device = await deviceById(app.db, request.body.id, request);
      await refuseIfLockedDown(app.db, device);
      await sendAudited(request, device, {
        type: 'open-door',
        params: { durationS: request.body.durationS, by: currentUser(request).username },
      });
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
        config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: deviceFieldLabels.command },
        schema: {
          tags,
          summary: `Send ${type}; answers once the device acked`,
          body: deviceCommandBody,
          response: { 200: envelope(z.null()) },
        },
      },
      async (request) => {
        const device = await deviceById(app.db, request.body.id, request);
        await sendAudited(request, device, { type, params: {} }, request.body.reason);
        return ok(null);
      },
    );
  }

  app.post(
    deviceEndpoints.reboot,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: deviceFieldLabels.command },
      schema: {
        tags,
        summary: 'Restart a v1.1 device; answers once the device acked (v1 devices have no reboot: 409)',
        body: deviceCommandBody,
        response: { 200: envelope(z.null()) },
      },
    },
    async (request) => {
      const device = await deviceById(app.db, request.body.id, request);
      if (device.protocol !== '1.1') throw conflict(deviceMessages.rebootUnsupported(device.name));
      await sendAudited(request, device, { type: 'reboot', params: {} }, request.body.reason);
      return ok(null);
    },
  );

  app.post(
    deviceEndpoints.resetConfig,
    {
      config: { permission: DEVICE_EDIT_PERMISSION, fieldLabels: deviceFieldLabels.command },
      schema: {
        tags,
        summary: 'Rotate the device secret; answers the new one once the device acked with its old one',
        body: deviceCommandBody,
        response: { 200: envelope(deviceSecretReset) },
      },
    },
    async (request) => {
      const device = await deviceById(app.db, request.body.id, request);
      const secret = newDeviceSecret();
      const sealed = link.box.seal(secret);
      // Accepted by the broker from now on, so the device can reconnect with it right after its ack.
      await app.db.update(devices).set({ pendingSecret: sealed }).where(eq(devices.id, device.id));
      try {
        await sendAudited(
          request,
          device,
          {
            type: 'reset-config',
            // v1.1 devices get the new secret sealed under their old one: it never travels in clear.
            params:
              device.protocol === '1.1'
                ? { secretBox: sealSecretBox(secret, link.box.open(device.secret)) }
                : { secret },
          },
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
};
