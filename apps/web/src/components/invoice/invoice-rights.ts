import type { InvoiceMove } from '@cowork/contract/resources/invoice';

/** What the signed-in staff member may do with this kind of invoice. */
export interface InvoiceRights {
  edit: boolean;
  issue: boolean;
  void: boolean;
}

/** 开票 and 驳回 take the issue code, 作废 its own. */
export const mayMove = (rights: InvoiceRights) => (move: InvoiceMove) =>
  move === 'void' ? rights.void : rights.issue;
