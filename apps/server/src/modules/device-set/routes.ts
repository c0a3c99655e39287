/**
 * 门禁联动 (device-set): the calls packages/contract/src/resources/device-set.ts declares, by job:
 * the sets (sets.ts), their devices (devices.ts) and the spaces they hold (spaces.ts), each write
 * going through changeSet (change.ts), which re-syncs the devices it touched once committed.
 *
 * Permissions: hardware:map:view reads, :edit writes, :remove deletes a set.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { setDeviceRoutes } from './devices.ts';
import { setRoutes } from './sets.ts';
import { setSpaceRoutes } from './spaces.ts';

export const deviceSetRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(setRoutes);
  await app.register(setDeviceRoutes);
  await app.register(setSpaceRoutes);
};

export default deviceSetRoutes;
