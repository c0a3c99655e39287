/**
 * 菜单配置 (sso-menu): the console's menu tree. Groups hold pages, pages hold the action entries
 * whose permission codes roles grant; the side menu shows the visible groups and pages a user's
 * roles grant (`user-tree`). Besides the resource routes: `menus` (the whole tree, hidden and action
 * entries included) and `sort` (the order of one parent's children).
 */
import { z } from 'zod';
import { blankAsNull, INT32_MAX, numeric } from '../validators.ts';
import { prefixes } from '../endpoints.ts';
import { defineResource, field } from '../resource.ts';

const base = `${prefixes.user}/sso-menu`;

export const menuTypeOptions = [
  { value: 'group', label: '分组' },
  { value: 'page', label: '页面' },
  { value: 'action', label: '操作' },
] as const;
export type MenuKind = (typeof menuTypeOptions)[number]['value'];

/** `system:source:view`: two to five segments of letters, digits, - and _. */
export const permissionCodePattern = /^[A-Za-z][\w-]*(:[A-Za-z0-9][\w-]*){1,4}$/;

export const menu = defineResource({
  key: 'sso-menu',
  base,
  label: '菜单',
  permission: 'system:menu',
  fields: {
    name: field.text('菜单名称', { max: 50, search: 'like' }),
    type: field.enumeration('菜单类型', menuTypeOptions),
    parentId: field.reference('上级菜单', `${base}/menus`, {
      optional: true,
      help: '分组没有上级；页面放在分组下（或不选，作为一级菜单）；操作放在页面下',
    }),
    url: {
      ...field.text('路由地址', { max: 200, optional: true, search: 'like' }),
      help: '分组和页面必填，以 / 开头，如 /system/source；操作不填',
    },
    permission: {
      ...field.text('权限编码', { max: 100, optional: true, search: 'like' }),
      schema: blankAsNull(
        z
          .string({ error: '请填写权限编码' })
          .trim()
          .regex(permissionCodePattern, '权限编码格式应为 分组:页面:操作，如 system:source:view'),
      ),
      help: '仅操作需要，如 system:source:view；勾选该操作的角色获得此权限',
    },
    iconUrl: field.image('图标', { list: false }),
    iconBrightUrl: field.image('高亮图标', { list: false }),
    sort: field.sort(),
    visible: {
      label: '显示',
      kind: 'boolean',
      schema: z.boolean({ error: '显示必须是是或否' }).default(true),
      search: 'eq',
      help: '隐藏的菜单不出现在侧边菜单，但仍可授权',
    },
  },
  actions: ['page', 'detail', 'save', 'edit', 'remove'],
  defaultSort: { field: 'sort', order: 'ascend' },
});

/** One node of the whole tree (`GET sso-menu/menus`). */
export interface MenuNode {
  id: number;
  parentId: number | null;
  name: string;
  type: MenuKind;
  url: string;
  permission: string | null;
  iconUrl: string | null;
  iconBrightUrl: string | null;
  sort: number;
  visible: boolean;
  children: MenuNode[];
}

const nodeFields = {
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  type: z.enum(['group', 'page', 'action']),
  url: z.string(),
  permission: z.string().nullable(),
  iconUrl: z.string().nullable(),
  iconBrightUrl: z.string().nullable(),
  sort: z.number().int(),
  visible: z.boolean(),
};
// The tree is at most three deep (group → page → action), so it is spelled out rather than
// recursive: the API docs need no self-reference.
const actionNode = z.object({ ...nodeFields, children: z.array(z.never()) });
const pageNode = z.object({ ...nodeFields, children: z.array(actionNode) });
export const menuNode = z.object({ ...nodeFields, children: z.array(z.union([pageNode, actionNode])) });

/** Body of `PUT sso-menu/sort`: the children of one parent (null: the top level) in their new order. */
export const menuSortBody = z.object({
  parentId: numeric(
    z
      .number({ error: '上级菜单必须是编号' })
      .int('上级菜单必须是编号')
      .positive('上级菜单必须是编号')
      .max(INT32_MAX, '上级菜单必须是编号')
      .nullable(),
  ),
  ids: z
    .array(numeric(z.number().int().positive().max(INT32_MAX, '编号必须是正整数')), {
      error: '请给出要排序的菜单',
    })
    .min(1, '请给出要排序的菜单')
    .max(500, '一次最多排序 500 个菜单'),
});

export const menuEndpoints = {
  menus: `${base}/menus`,
  sort: `${base}/sort`,
} as const;
