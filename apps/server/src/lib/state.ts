/**
 * The moves of a resource with state (the contract's `defineStates`: orders, invoices) as the server
 * makes them: one UPDATE whose condition finds the record only in a status the move may leave, so
 * of two concurrent moves one wins and the other gets the 409 naming both statuses; and the audit
 * entry of the move. A module adds what its move sets and checks (amounts, stamps, freed orders).
 *
 * @example
 *   const [moved] = await tx.update(invoices).set({ status: to, … })
 *     .where(and(eq(invoices.id, id), leavesFrom(invoices.status, invoiceStates, 'issue'))).returning();
 *   if (!moved) throw refusedMove(invoiceStates, 'issue', (await load(tx, id)).status);
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

/** The condition that holds only while the record is in a status `move` may leave. */
export const leavesFrom = <M extends string>(column: PgColumn, states: StatesOf<M>, move: M): SQL =>
  inArray(column, [...states.moves[move].from]);

/** The 409 of a move the record's current status does not allow. */
export const refusedMove = <M extends string>(states: StatesOf<M>, move: M, current: string) =>
  conflict(states.illegalMove(current, states.moves[move].to));

/** Audits a move: the status it left and the one it reached, with what else the move recorded. */
export function auditMove(
  request: FastifyRequest,
  tx: Executor,
  entry: { resource: string; id: number; move: string; from: string; to: string; after?: object },
) {
  return audit(
    request,
    {
      action: entry.move,
      resource: entry.resource,
      resourceId: entry.id,
      before: { status: entry.from },
      after: { status: entry.to, ...entry.after },
    },
    tx,
  );
}
