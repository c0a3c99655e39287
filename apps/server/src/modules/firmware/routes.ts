/**
 * 固件升级: firmware files (upload, list, the signed download devices use) and rollouts over
 * devices of one model. Reading needs hardware:firmware:view; uploading and every rollout change
 * :edit; the download needs only a link the server signed.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { firmwareFileRoutes } from './files.ts';
import { rolloutRoutes } from './rollouts.ts';

const firmwareRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(firmwareFileRoutes);
  await app.register(rolloutRoutes);
};

export default firmwareRoutes;
