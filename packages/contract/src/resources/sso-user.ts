/**
 * 后台用户 (sso-user): staff accounts of the console. The username and the initial password are set
 * when the account is made; afterwards only 重置密码 (edit-password) changes the password, and the
 * status moves through edit-account-status. Password hashes never leave the server.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { idOf, newPasswordSchema } from '../validators.ts';

const accountStatusOptions = [
  { value: 'enabled', label: '启用' },
  { value: 'disabled', label: '停用' },
] as const;

const base = `${prefixes.user}/sso-user`;

export const ssoUserEndpoints = {
  /** PUT `{id, status}`: enables or disables an account; disabling ends its sessions at once. */
  editAccountStatus: `${base}/edit-account-status`,
  /** GET `…/user-id/{id}`: id, nickname and username of one staff member, for user:admin:view. */
  userId: `${base}/user-id`,
  /** GET: the roles that may be assigned, as `{value, label}` options. */
  roleOptions: `${base}/role-options`,
} as const;

export const ssoUser = defineResource({
  key: 'sso-user',
  base,
  label: '后台用户',
  permission: 'user:admin',
  // `list`: staff by nickname, for selects on other screens (a lead's 负责人).
  actions: ['page', 'detail', 'save', 'edit', 'remove', 'list'],
  titleField: 'nickname',
  fields: {
    username: {
      ...field.text('用户名', { max: 32, search: 'like', unique: true, createOnly: true }),
      schema: z
        .string({ error: '请填写用户名' })
        .trim()
        .regex(
          /^[A-Za-z][A-Za-z0-9_.-]{2,31}$/,
          '用户名须以字母开头，只含字母、数字、_、. 和 -，长 3 到 32 位',
        ),
      help: '登录用的账号，创建后不能修改，不区分大小写',
    },
    nickname: field.text('昵称', { max: 50, search: 'like' }),
    phone: field.phone('手机号', { optional: true, search: 'prefix' }),
    email: field.email('邮箱', { optional: true }),
    password: {
      label: '初始密码',
      kind: 'password',
      // Left empty, it asks for the 初始密码 by its name on this form; the length rules are the shared ones.
      schema: z.string({ error: '请填写初始密码' }).min(1, '请填写初始密码').pipe(newPasswordSchema),
      createOnly: true,
      writeOnly: true,
      list: false,
      help: '8 到 64 个字符；用户登录后可在右上角修改密码',
    },
    roleIds: field.references('角色', `${base}/role-options`, { search: 'eq', list: true }),
    status: field.enumeration('状态', accountStatusOptions, { form: false }),
    lastLoginAt: {
      label: '最后登录',
      kind: 'datetime',
      schema: z.string().nullish(),
      form: false,
      sortable: true,
    },
  },
});

/** Body of edit-account-status. */
export const accountStatusBody = z.object({
  id: idOf(),
  status: z.enum(['enabled', 'disabled'], { error: '状态只能是启用或停用' }),
});

/** Answer of user-id/{id}. */
export const ssoUserBrief = z.object({ id: z.number().int(), nickname: z.string(), username: z.string() });

/** Why a change to staff accounts is refused (the server's messages, also shown by the console). */
export const ssoUserMessages = {
  ownRoles: '不能修改自己的角色，请让其他管理员操作',
  ownStatus: '不能停用或启用自己的账号，请让其他管理员操作',
  removeSelf: '不能删除自己的账号，请让其他管理员操作',
  lastSuperAdmin:
    '这是最后一个启用的超级管理员账号，不能删除、停用或取消其超级管理员角色；请先给另一个启用的账号分配超级管理员角色',
  grantBeyondOwn: (role: string) => `您不能分配“${role}”角色：它包含您自己没有的权限，请让超级管理员操作`,
  unknownRole: '所选角色不存在或已被删除，请刷新后重新选择',
  disabled: '账号已停用，该用户的登录已全部失效',
  enabled: '账号已启用',
} as const;
