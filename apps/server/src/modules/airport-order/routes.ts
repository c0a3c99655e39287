/**
 * 机场贵宾厅订单 (airport-order) under the tripartite prefix: the order module of kind 'airport',
 * read-only as declared (page, detail with the timeline, export; see airportOrder in the contract).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { airportOrder } from '@cowork/contract/resources/order';
import { orderModule } from '../order/routes.ts';

const airportOrderRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(orderModule(airportOrder));
};

export default airportOrderRoutes;
