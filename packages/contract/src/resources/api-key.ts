/**
 * 接口密钥 (开放平台, route /system/open): `ck_…` keys other systems send as
 * `Authorization: Bearer ck_…` to the admin API. A key acts with its role's permission codes (read
 * at each use, so a role edit applies), optionally only in some buildings; it is shown once, stored
 * as its SHA-256, revocable at once, rate-limited per key, and never opens the screens that hand out
 * rights (keys, roles, staff, menus) nor the caller's own account (sign-in, password, profile).
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { pageParams } from '../paging.ts';
import { createSchema, defineResource, field, labelsOf, resourcePermissions } from '../resource.ts';
import { idOf } from '../validators.ts';

const base = `${prefixes.basic}/api-key`;

export const apiKeyEndpoints = {
  /** POST `{name, roleId, buildingIds?, expiresAt?}` → `{id, key}`: the only time the key is shown. */
  save: `${base}/save`,
  /** GET `current, size, name` → a page of `apiKeyRecord`. */
  page: `${base}/page`,
  /** POST `{id}`: refused from then on, on every instance within a second. */
  revoke: `${base}/revoke`,
  /** GET → `{value, label}` options: the roles the caller may give a key (none beyond their own codes). */
  roleList: `${base}/role-list`,
} as const;

/** What a key looks like: `ck_` and 32 random bytes in base64url (43 characters). */
export const API_KEY_PREFIX = 'ck_';
export const API_KEY_PATTERN = /^ck_[A-Za-z0-9_-]{43}$/;
/** How many leading characters of a key the list shows (`ck_` and 6 more). */
export const API_KEY_SHOWN_CHARS = 9;
/** Calls one key may make per minute, counted across every instance (env API_KEY_RATE_LIMIT overrides it). */
export const API_KEY_RATE_LIMIT = 600;
/** Last used time and address are written at most this often per key (not once per call). */
export const API_KEY_USAGE_WRITE_MS = 60_000;

/**
 * Path prefixes a key never reaches whatever its role grants: the screens that hand out rights
 * (接口密钥, 角色权限, 后台用户, 菜单配置 and the route catalogue roles are built from), and a staff
 * member's own session and account (sign-out, password, profile).
 */
export const apiKeyForbiddenPrefixes = [
  `${base}/`,
  `${prefixes.user}/sso-role/`,
  `${prefixes.user}/sso-resources/`,
  `${prefixes.user}/sso-user/`,
  `${prefixes.user}/sso-menu/`,
  '/api/auth/',
] as const;

/**
 * What a key limited to buildings (限定楼宇) never reaches, by the name its 403 gives: records that
 * span buildings or add them up, so no building filter can make them the key's alone. Staff and keys
 * of every building reach them as their role allows.
 */
const crossBuildingAreas = [
  // An invoice has no building of its own: it covers orders, and its lists, 开票, 驳回 and 作废 filter by none.
  { label: '发票', prefixes: [`${prefixes.order}/invoice/`, `${prefixes.tripartite}/tripartite-invoice/`] },
  // The dashboard's totals add up every building's orders, members and leads.
  { label: '首页统计', prefixes: [`${prefixes.order}/dashboard/`] },
  // A device set (门禁联动) joins devices and spaces of several buildings.
  { label: '门禁联动', prefixes: [`${prefixes.hardware}/device-set/`] },
  // One firmware file and one rollout reach devices in several buildings.
  { label: '固件升级', prefixes: [`${prefixes.hardware}/firmware/`] },
  // A company has space in several buildings; its staff list, groups and cards span them.
  { label: '企业', prefixes: [`${prefixes.user}/company/`, `${prefixes.user}/company-staff/`] },
  // A company card is valid in its meeting card's buildings; its ledger holds orders of each of them.
  { label: '企业会议卡', prefixes: [`${prefixes.card}/company-card/`] },
  // An activity sells a meeting card valid in several buildings and has no building of its own.
  { label: '会议卡活动', prefixes: [`${prefixes.card}/team-card-activity/`] },
  // An endpoint receives every building's events (door, order, alert…): it would read them all.
  { label: '推送地址', prefixes: [`${prefixes.basic}/webhook/`] },
  // The audit log holds every building's changes, before and after.
  { label: '操作日志', prefixes: [`${prefixes.user}/audit-log/`] },
] as const;

/** Path prefixes a key limited to buildings never reaches (`crossBuildingAreas`). */
export const apiKeyCrossBuildingPrefixes: readonly string[] = crossBuildingAreas.flatMap(
  (area) => area.prefixes,
);

export const apiKey = defineResource({
  key: 'api-key',
  base,
  label: '接口密钥',
  permission: 'system:open:api-key',
  fields: {
    name: field.text('密钥名称', { max: 50, search: 'like', help: '用途或调用方，如 财务系统' }),
    roleId: {
      ...field.reference('所属角色', apiKeyEndpoints.roleList),
      help: '密钥拥有该角色的全部权限，角色修改后立即生效；只能选择权限不超出您自己的角色',
    },
    buildingIds: {
      ...field.references('限定楼宇', `${prefixes.building}/building/list`),
      help: '留空则不限楼宇；选择后只能查看和操作这些楼宇的数据，且不能调用发票、首页统计等跨楼宇的接口',
    },
    expiresAt: {
      ...field.datetime('过期时间', { optional: true }),
      help: '留空则长期有效',
    },
  },
  actions: ['page', 'save'],
});

/**
 * Its own codes under 开放平台's screen (`system:open:api-key:view`, `:edit`), granted only by name
 * (resources/operations.ts): a role that manages webhooks (`system:open:edit`) does not thereby
 * mint keys that act as a role.
 */
export const API_KEY_VIEW_PERMISSION = resourcePermissions(apiKey).view;
export const API_KEY_EDIT_PERMISSION = resourcePermissions(apiKey).edit;

/** Labels of the bodies' and records' fields, so a 400 names the field in Chinese. */
export const apiKeyLabels: Record<string, string> = {
  ...labelsOf(apiKey),
  roleName: '所属角色',
  prefix: '密钥前缀',
  lastUsedAt: '最后使用时间',
  lastUsedIp: '最后使用地址',
  revokedAt: '吊销时间',
  createdAt: '创建时间',
};

/** Body of `save`. An expiry must lie in the future (the server checks it against its clock). */
export const apiKeySaveBody = createSchema(apiKey);
export type ApiKeySave = z.output<typeof apiKeySaveBody>;

/** Answer of `save`: the key itself, never shown again. */
export const apiKeyCreated = z.object({ id: z.number().int(), key: z.string() });
export type ApiKeyCreated = z.output<typeof apiKeyCreated>;

export const apiKeyPageQuery = z.object({
  ...pageParams,
  name: z.string().trim().max(50, '密钥名称最多 50 个字符').optional(),
});

/** A key as the list shows it: never the key, only its first characters. */
export const apiKeyRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  roleId: z.number().int(),
  roleName: z.string(),
  prefix: z.string(),
  /** Empty: every building. */
  buildingIds: z.array(z.number().int()),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type ApiKeyRecord = z.output<typeof apiKeyRecord>;

export const apiKeyRevokeBody = z.object({ id: idOf('请选择要吊销的接口密钥') });

export const apiKeyMessages = {
  /** The save answer's msg: the console shows the key once with this. */
  created: '接口密钥已创建，请立即复制保存，关闭后将无法再次查看',
  revoked: '接口密钥已吊销，使用它的调用将立即被拒绝',
  notFound: '该接口密钥不存在，请刷新列表后重试',
  alreadyRevoked: '该接口密钥已吊销，无需重复操作',
  expiresInPast: '过期时间：必须晚于当前时间，请重新选择',
  roleNotFound: '所属角色：所选角色不存在或已被删除，请刷新后重新选择',
  roleBeyondOwn: (codes: string[]) =>
    `所属角色：该角色拥有您没有的权限（${codes.slice(0, 5).join('、')}${codes.length > 5 ? ' 等' : ''}），不能为它创建接口密钥，请选择其他角色`,
  /** 401s of a `ck_` bearer. */
  invalid: '接口密钥无效，请检查 Authorization 请求头中的密钥',
  expired: '接口密钥已过期，请在 开放平台 → 接口密钥 中创建新的密钥',
  revokedInUse: '接口密钥已被吊销，请在 开放平台 → 接口密钥 中创建新的密钥',
  roleGone: '接口密钥所属的角色已被删除，该密钥不再可用，请创建新的密钥',
  ownerGone: '创建该接口密钥的后台用户已被停用或删除，该密钥不再可用，请由其他后台用户创建新的密钥',
  /** 403 on the screens a key never reaches. */
  forbiddenEndpoint:
    '接口密钥不能调用密钥、角色、后台用户、菜单及登录账号相关的接口，请由后台用户在控制台中操作',
  /** 403 for a key limited to buildings on the routes that span buildings (`apiKeyCrossBuildingPrefixes`). */
  crossBuilding: `该接口密钥仅限部分楼宇使用，不能调用跨楼宇的接口（${crossBuildingAreas.map((area) => area.label).join('、')}）。如需调用，请使用不限楼宇的密钥。`,
  /** 403 on a query or body naming a building outside the key's (a record elsewhere is 404). */
  outsideBuildings: '该接口密钥只能访问其限定楼宇的数据，此操作涉及其他楼宇',
  /** 429 past the per-key rate. */
  rateLimited: (perMinute: number) => `接口密钥调用过于频繁（每分钟最多 ${perMinute} 次），请稍后再试`,
};

/** How the audit log names a write made with a key. */
export const apiKeyActorName = (name: string) => `接口密钥：${name}`;
