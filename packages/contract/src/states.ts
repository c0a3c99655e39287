/**
 * A resource with state (orders, invoices): its statuses, each with its Chinese label and the colour
 * its tag has, and the moves staff make between them. Declared once in the contract:
 * - the server guards each move with one UPDATE that only finds the record in a `from` status, and
 *   answers 409 with `illegalMove` when it does not (apps/server/src/lib/state.ts);
 * - the console shows a record's status as a coloured tag and the moves open to it as buttons.
 *
 * @example
 *   export const invoiceStates = defineStates({
 *     noun: '发票申请',
 *     statuses: [{ value: 'pending', label: '待开票', color: 'gold' }, …],
 *     moves: { issue: { from: ['pending'], to: 'issued', label: '开票' }, … },
 *   });
 */
import { keysOf } from './validators.ts';

/** A status: the stored value, its Chinese label and its tag's colour (an antd preset colour). */
interface StatusOption<S extends string = string> {
  value: S;
  label: string;
  color: string;
}

/**
 * A move: the status it leaves, the one it reaches, its button's label and its dialog's OK;
 * `danger` for a move that takes something back (cancel, refund, reject, void): a red button.
 */
export interface Move<S extends string = string> {
  /** The one status it leaves: the audit entry and an order's timeline record it. */
  from: readonly [S];
  to: S;
  label: string;
  confirm?: string;
  danger?: boolean;
}

export function defineStates<const S extends string, const M extends Record<string, Move<S>>>(def: {
  /** What a record is called in a refusal: 订单当前为「已支付」… */
  noun: string;
  statuses: readonly [StatusOption<S>, ...StatusOption<S>[]];
  moves: M;
  /** A sentence a refusal adds: which moves there are. */
  hint?: string;
}) {
  const labelOf = (status: string) => def.statuses.find((s) => s.value === status)?.label ?? status;
  return {
    ...def,
    labelOf,
    colorOf: (status: string) => def.statuses.find((s) => s.value === status)?.color,
    /** The moves open to a record in this status (the buttons the console shows), in declared order. */
    movesFrom: (status: string) =>
      keysOf(def.moves).filter((move) => def.moves[move].from.some((s) => s === status)),
    /** The 409 of a move the record's status does not allow, naming both statuses. */
    illegalMove: (from: string, to: string) =>
      `${def.noun}当前为「${labelOf(from)}」，不能改为「${labelOf(to)}」${def.hint ? `；${def.hint}` : ''}`,
  };
}
