/**
 * The one rule on every path that can change what a role grants — 角色权限 save/edit, 菜单配置
 * changing an action's code (the code moves into every role holding that action), 后台用户 role
 * assignment and account management: nobody hands out a permission code they do not hold
 * themselves. Without it any one of those screens would open everything.
 */
import { grantBeyondOwnMessage, grants } from '@cowork/contract';
import { AppError } from './http.ts';
import type { AuthUser } from './sessions.ts';

type Holder = Pick<AuthUser, 'permissions'>;

/** The codes among these that the caller does not hold (none for a holder of `*`). */
export const codesBeyond = (caller: Holder, codes: Iterable<string>): string[] =>
  [...new Set(codes)].filter((code) => !grants(caller.permissions, code));

/** Whether the caller holds every one of these codes. */
export const holdsAll = (caller: Holder, codes: Iterable<string>) => codesBeyond(caller, codes).length === 0;

/** 403 unless the caller holds every code; the message names what they lack unless one is given. */
export function assertMayGrant(
  caller: Holder,
  codes: Iterable<string>,
  message: (beyond: string[]) => string = grantBeyondOwnMessage,
): void {
  const beyond = codesBeyond(caller, codes);
  if (beyond.length > 0) throw new AppError(403, message(beyond));
}
