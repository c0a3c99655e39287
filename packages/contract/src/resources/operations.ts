/**
 * Permission codes beyond a screen's view / edit / remove: the money moves of orders and invoices,
 * and 物理空间's 紧急模式. The menu seed adds them as action menus under their page (so the role
 * screen shows them), and a role that may edit the screen holds them unless staff take them away,
 * except a right of its own (`separate`), which a role holds only when given it by name.
 */
import { EMERGENCY_PERMISSION } from '../devices.ts';
import { API_KEY_EDIT_PERMISSION, API_KEY_VIEW_PERMISSION } from './api-key.ts';
import { invoice, invoiceOperations, tripartiteInvoice } from './invoice.ts';
import { keysOf } from '../validators.ts';
import { orderActions, writableOrders } from './order.ts';

export interface Operation {
  /** The full code, e.g. `order:member:refund`. */
  code: string;
  /** Its action menu's name on the role screen. */
  name: string;
  /** Not part of the screen's edit right: granted only by name (super admin, or on the role screen). */
  separate?: true;
}

const orderOperations = keysOf(orderActions).map((action) => ({
  action,
  name: orderActions[action].label,
}));
const invoiceOps = Object.entries(invoiceOperations).map(([action, name]) => ({ action, name }));

/** Operations by permission prefix (`order:member`), the prefix of the screen they belong to. */
export const operationsByPrefix: ReadonlyMap<string, readonly Operation[]> = new Map(
  [
    ...writableOrders.map((resource) => [resource.permission, orderOperations] as const),
    ...[invoice, tripartiteInvoice].map((resource) => [resource.permission, invoiceOps] as const),
  ]
    .map(([prefix, ops]): [string, Operation[]] => [
      prefix,
      ops.map(({ action, name }) => ({ code: `${prefix}:${action}`, name })),
    ])
    .concat([
      // Locking a building down or releasing every door is no part of editing spaces.
      ['hardware:space', [{ code: EMERGENCY_PERMISSION, name: '紧急模式', separate: true }]],
      // Managing webhooks is not minting keys that act as a role.
      [
        'system:open',
        [
          { code: API_KEY_VIEW_PERMISSION, name: '查看接口密钥', separate: true },
          { code: API_KEY_EDIT_PERMISSION, name: '管理接口密钥', separate: true },
        ],
      ],
    ]),
);
