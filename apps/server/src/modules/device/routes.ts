/**
 * 设备管理: the console API for door devices (paths, bodies and answers declared in the contract),
 * in five parts: registration (待注册, register, unregister), listing (the list, detail, door code,
 * link status), commands (远程开门 and the others, through the device link), access lists (admin
 * passwords, card rules) and 门禁权限查询 (who can open a device or a space's doors, and why).
 * 开门记录 is its own module (modules/open-log).
 *
 * Permissions: reading needs hardware:device:view; registering, every command and list change :edit;
 * unregistering :remove.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accessListRoutes } from './access-lists.ts';
import { accessViewRoutes } from './access-views.ts';
import { commandRoutes } from './commands.ts';
import { listingRoutes } from './listing.ts';
import { registrationRoutes } from './registration.ts';

const deviceRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(registrationRoutes);
  await app.register(listingRoutes);
  await app.register(commandRoutes);
  await app.register(accessListRoutes);
  await app.register(accessViewRoutes);
};

export default deviceRoutes;
