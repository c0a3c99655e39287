/** The zod schemas of the shell and auth payloads (conventions in docs/api.md). */
import { z } from 'zod';
import type { MenuItem } from './endpoints.ts';
import { ownFileUrl } from './urls.ts';
import { blankAsNull, emailSchema, INT32_MAX, newPasswordSchema, numeric } from './validators.ts';

/** The signed-in user as the console's header and profile show them, plus what the permission gate needs. */
export const userInfo = z.object({
  ssoUserId: z.number().int(),
  username: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  avatar: z.string().nullable(),
  roles: z.array(z.string()),
  /** Chinese names of the roles, in the same order. */
  roleNames: z.array(z.string()),
  permissions: z.array(z.string()),
});
export type UserInfo = z.infer<typeof userInfo>;

/** Token endpoint answer (no envelope). */
export const tokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  user_info: userInfo,
});
export type TokenResponse = z.infer<typeof tokenResponse>;

/**
 * The password-change form (修改密码, and a reset of someone else's). Changing one's own password
 * also needs the current one (oldPassword), so a stolen access token cannot take the account;
 * resetting someone else's does not.
 */
export const passwordEdit = z.object({
  oldPassword: z.string().optional(),
  newPassword: newPasswordSchema,
  ssoUserId: numeric(z.number().int().positive().max(INT32_MAX, '编号必须是正整数')),
});

/** An item of the signed-in user's side-menu tree (`sso-menu/user-tree`), its children nested. */
export const menuItem: z.ZodType<MenuItem> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    url: z.string(),
    iconUrl: z.string().nullable(),
    iconBrightUrl: z.string().nullable(),
    children: z.array(menuItem),
  }),
);

/** One audit-log entry as the 操作日志 page lists it. */
export const auditLogRecord = z.object({
  id: z.number().int(),
  actorId: z.number().int().nullable(),
  actorName: z.string().nullable(),
  /** The actor's sign-in name, shown beside actorName (nicknames need not be unique). */
  actorUsername: z.string().nullable().optional(),
  /** The API key (接口密钥) the write was made with, its creator being the actor; null for staff. */
  apiKeyId: z.number().int().nullable(),
  /** The key's name when the write was made (kept when the key is gone). */
  apiKeyName: z.string().nullable(),
  action: z.string(),
  resource: z.string(),
  resourceId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  ip: z.string().nullable(),
  at: z.string(),
});
export type AuditLogRecord = z.infer<typeof auditLogRecord>;

/** How the log names an actor: 昵称（用户名）, or whichever of the two there is. */
export const actorLabel = (name: string | null | undefined, username: string | null | undefined) =>
  name && username && name !== username ? `${name}（${username}）` : name || username || '—';

export const auditLogQuery = z.object({
  current: numeric(z.number().int().min(1).default(1)),
  size: numeric(z.number().int().min(1).max(100).default(10)),
  actorId: numeric(z.number().int().optional()),
  resource: z.string().optional(),
  action: z.string().optional(),
  /** A company's 操作记录: the company and its staff, access groups (and their people) and cards. */
  companyId: numeric(z.number().int().positive().optional()),
  from: z.string().optional(),
  to: z.string().optional(),
});

/** The signed-in user's own profile (个人中心): what one may change about oneself. */
export const profileEdit = z.object({
  nickname: z
    .string({ error: '请填写昵称' })
    .trim()
    .min(1, '请填写昵称')
    .max(30, '昵称最多 30 个字符，请删减后重试'),
  email: blankAsNull(emailSchema),
  avatar: blankAsNull(ownFileUrl('头像')),
});
