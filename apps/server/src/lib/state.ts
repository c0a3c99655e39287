/**
 * The moves of a resource with state (the contract's `defineStates`: orders, invoices) as the server
 * makes them, one way for every such resource (`moveRecord`): one UPDATE whose condition finds the
 * record only in a status the move may leave, so of two concurrent moves one wins and the other gets
 * the 409 naming both statuses; and the audit entry of the move, in the same transaction. A module
 * says what its move writes besides the status (stamps, amounts), what it checks (its own 409s) and
 * what else the audit entry records.
 *
 * @example
 *   const moved = await moveRecord(request, tx, {
 *     resource: 'invoice', states: invoiceStates, move: 'issue', status: invoices.status,
 *     update: (leaving) => tx.update(invoices).set({ status: 'issued', … })
 *       .where(and(eq(invoices.id, id), leaving)).returning().then(([row]) => row),
 *     current: () => load(tx, id),
 *   });
 */
import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Move } from '@cowork/contract';
import type { Executor } from '../db/client.ts';
import { audit } from './audit.ts';
import { conflict } from './http.ts';

interface StatesOf<M extends string> {
  moves: Record<M, Move>;
  illegalMove: (from: string, to: string) => string;
}

interface Moved {
  id: number;
  status: string;
}

/**
 * Makes one move and audits it. `update` runs the module's UPDATE with `leaving` (the record is in
 * a status the move may leave) added to its condition and answers the row it moved, if any;
 * `current` reads the record as it is now (throwing the module's 404 when it is gone); `refusal`
 * may name a module's own reason (an unpaid balance, an invoice) before the status refusal.
 */
export async function moveRecord<M extends string, R extends Moved>(
  request: FastifyRequest,
  tx: Executor,
  move: {
    resource: string;
    states: StatesOf<M>;
    move: M;
    status: PgColumn;
    update: (leaving: SQL) => Promise<R | undefined>;
    current: () => Promise<R>;
    refusal?: (current: R) => Promise<string | undefined> | string | undefined;
    /** What the audit entry records besides the two statuses. */
    audited?: (moved: R) => object;
  },
): Promise<R> {
  const { from, to } = move.states.moves[move.move];
  const moved = await move.update(inArray(move.status, [...from]));
  if (!moved) {
    const current = await move.current();
    const own = from.includes(current.status) ? await move.refusal?.(current) : undefined;
    throw conflict(own ?? move.states.illegalMove(current.status, to));
  }
  await audit(
    request,
    {
      action: move.move,
      resource: move.resource,
      resourceId: moved.id,
      // A move leaves one status (contract states.ts), so it is the one this move left.
      before: { status: from[0] },
      after: { status: moved.status, ...move.audited?.(moved) },
    },
    tx,
  );
  return moved;
}
