/**
 * Who a device command is recorded as (the command log's 操作人): the staff member whose request
 * caused it, a sync after an edit included, or 系统自动 for what the server does on its own (the
 * sync after a hello, expiries, re-sending a state a device missed).
 */
import type { FastifyRequest } from 'fastify';
import { currentUser } from '../plugins/auth.ts';
import type { CommandActor } from './commands.ts';

export const automaticActor: CommandActor = { userId: null, name: '系统自动' };

/** The signed-in staff member of this request, by the name the console shows. */
export function staffActor(request: FastifyRequest, reason?: string): CommandActor {
  const user = currentUser(request);
  return { userId: user.id, name: user.nickname || user.username, reason, log: request.log };
}
