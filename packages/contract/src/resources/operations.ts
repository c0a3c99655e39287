/**
 * Permission codes beyond a screen's view / edit / remove: the money moves of orders and invoices.
 * The menu seed adds them as action menus under their page (so the role screen shows them), and a
 * role that may edit the screen holds them unless staff take them away.
 */
import { invoice, invoiceOperations, tripartiteInvoice } from './invoice.ts';
import { orderActions, writableOrders, type OrderAction } from './order.ts';

export interface Operation {
  /** The full code, e.g. `order:member:refund`. */
  code: string;
  /** Its action menu's name on the role screen. */
  name: string;
}

const orderOperations = (Object.keys(orderActions) as OrderAction[]).map((action) => ({
  action,
  name: orderActions[action].label,
}));
const invoiceOps = Object.entries(invoiceOperations).map(([action, name]) => ({ action, name }));

/** Operations by permission prefix (`order:member`), the prefix of the screen they belong to. */
export const operationsByPrefix: ReadonlyMap<string, readonly Operation[]> = new Map(
  [
    ...writableOrders.map((resource) => [resource.permission, orderOperations] as const),
    ...[invoice, tripartiteInvoice].map((resource) => [resource.permission, invoiceOps] as const),
  ].map(([prefix, ops]) => [prefix, ops.map(({ action, name }) => ({ code: `${prefix}:${action}`, name }))]),
);
