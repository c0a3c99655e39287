/**
 * 角色权限 (sso-role): a role grants menus (what its users see) and permission codes (what they
 * may call; the codes of the granted action menus plus any others). Role groups only organise
 * roles. The route catalogue (`sso-resources/page`) lists every API route with its code.
 */
import { z } from 'zod';
import { INT32_MAX, numeric } from '../validators.ts';
import { pageParams } from '../paging.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';
import { permissionCodePattern } from './sso-menu.ts';

const base = `${prefixes.user}/sso-role`;

/** The role no one may remove or narrow: it grants everything (`*`). */
export const SUPER_ADMIN_ROLE = 'super_admin';

export const roleEndpoints = {
  roleGroupList: `${base}/role-group-list`,
  saveRoleGroup: `${base}/save-role-group`,
  removeRoleGroup: `${base}/remove-role-group`,
  resourcesPage: `${prefixes.user}/sso-resources/page`,
} as const;

export const role = defineResource({
  key: 'sso-role',
  base,
  label: '角色',
  permission: 'system:role',
  fields: {
    name: field.text('角色名称', { max: 50, search: 'like', unique: true }),
    code: {
      ...field.text('角色编码', { max: 50, search: 'eq', unique: true }),
      schema: z
        .string({ error: '请填写角色编码' })
        .trim()
        .regex(/^[a-z][a-z0-9_]{1,49}$/, '角色编码须以小写字母开头，只含小写字母、数字和 _，长 2 到 50 位'),
      help: '程序使用的唯一编码，如 front_desk',
    },
    roleGroupId: field.reference('角色分组', roleEndpoints.roleGroupList, { optional: true }),
    description: field.textarea('描述', { max: 500, optional: true, list: true }),
    userCount: { ...field.integer('用户数'), form: false },
    menuIds: field.references('授权菜单', `${prefixes.user}/sso-menu/menus`),
    permissions: field.tags('权限编码', {
      max: 100,
      pattern: new RegExp(`^\\*$|${permissionCodePattern.source}`),
      hint: '格式应为 分组:页面:操作，如 system:source:view',
    }),
  },
  actions: ['page', 'detail', 'save', 'edit', 'remove', 'list'],
  defaultSort: { field: 'name', order: 'ascend' },
});

/** A role group with how many roles it holds; `value`/`label` let selects use the list as is. */
export const roleGroupRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  sort: z.number().int(),
  roleCount: z.number().int(),
  value: z.number().int(),
  label: z.string(),
});
export type RoleGroupRecord = z.infer<typeof roleGroupRecord>;

/** Body of `save-role-group`: with an id it renames or re-sorts that group. */
export const roleGroupBody = z.object({
  id: numeric(
    z
      .number()
      .int('编号必须是正整数')
      .positive('编号必须是正整数')
      .max(INT32_MAX, '编号必须是正整数')
      .optional(),
  ),
  name: z
    .string({ error: '请填写分组名称' })
    .trim()
    .min(1, '请填写分组名称')
    .max(50, '分组名称最多 50 个字符，请删减后重试'),
  sort: field.sort().schema,
});

/** One API route of the catalogue. */
export const apiResource = z.object({
  method: z.string(),
  path: z.string(),
  /**
   * The permission code it needs (several joined by ` | `: any one opens it); null when any
   * signed-in user (or anyone) may call it.
   */
  code: z.string().nullable(),
  /** Every code that opens it, any one being enough; empty when no code is needed. */
  codes: z.array(z.string()),
  access: z.enum(['public', 'auth', 'permission']),
  /** Chinese name: the screen and action of its code, or who may call it. */
  name: z.string(),
  summary: z.string().nullable(),
});
export type ApiResource = z.infer<typeof apiResource>;

export const resourcesQuery = z.object({
  ...pageParams,
  /** Part of the code or path (case-insensitive). */
  keyword: z.string().trim().max(200, '关键词最多 200 个字符').optional(),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'], { error: '请求方法不是可选的值' }).optional(),
});
