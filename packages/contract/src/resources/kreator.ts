/**
 * 企业门禁组 (/enterprise/accessControl): a company's staff open exactly the group's doors, within
 * the group's validity, while the group is enabled. A group belongs to a company (企业) and takes
 * from its active staff (`staffScope`): all of them, those of `departments`, or chosen people.
 * `companyName` is the company's name, answered as before companies existed. Three resources serve
 * the screen:
 * - kreator-user-group: `GET page` (also `?companyId=`), `GET detail/{id}`, `POST create` → `{id, …}`,
 *   `PUT edit`, `GET list`;
 * - kreator-user (the chosen people of a `people` group): `GET page?groupId=`,
 *   `POST add {groupId, name, phone}` (the person joins the company's staff list when not on it, the
 *   member with that phone found or created with source 企业导入), `POST bind {groupId, memberIds}`
 *   (existing members), `DELETE delete {ids}`, and the Excel import `POST import/excel?groupId=` with
 *   its template `GET import/template?groupId=`; a group of another scope refuses them (400);
 * - kreator-device (the group's doors): `GET page?groupId=`, `POST add {groupId, deviceIds}`,
 *   `DELETE delete {ids}`.
 * Every change re-syncs the devices it touches at once (apps/server/src/device-link/access.ts); a group
 * reaching its validTo is re-synced then (the devices' next expiry), across restarts.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { pageParams } from '../paging.ts';
import { defineResource, field, resourcePaths } from '../resource.ts';
import { idOf } from '../validators.ts';
import { deviceRecord } from '../devices/device.ts';
import { companyEndpoints, departmentsField, staffScopeField } from './company.ts';

const KREATOR_PERMISSION = 'enterprise:accessControl';
export const KREATOR_VIEW_PERMISSION = `${KREATOR_PERMISSION}:view`;
export const KREATOR_EDIT_PERMISSION = `${KREATOR_PERMISSION}:edit`;
export const KREATOR_REMOVE_PERMISSION = `${KREATOR_PERMISSION}:remove`;

const kreatorGroupStatusOptions = [
  { value: 'enabled', label: '启用' },
  { value: 'disabled', label: '停用' },
] as const;

export const kreatorUserGroup = defineResource({
  key: 'kreator-user-group',
  base: `${prefixes.user}/kreator-user-group`,
  label: '企业门禁组',
  permission: KREATOR_PERMISSION,
  actions: ['page', 'detail', 'save', 'edit', 'list'],
  names: { save: 'create' },
  fields: {
    name: field.text('门禁组名称', { max: 50, search: 'like', unique: true }),
    companyId: field.reference('企业', companyEndpoints.list),
    companyName: { ...field.text('企业名称', { max: 100, search: 'like' }), form: false },
    staffScope: staffScopeField(),
    departments: departmentsField(),
    buildingId: field.reference('楼宇', `${prefixes.building}/building/list`),
    validFrom: field.datetime('生效时间', { sortable: true }),
    validTo: field.datetime('失效时间', { sortable: true, help: '到期后组内成员立即不能再开门' }),
    status: field.enumeration('状态', kreatorGroupStatusOptions, {
      help: '停用后组内成员立即不能再开门',
    }),
    memberCount: field.integer('成员数', { form: false, help: '当前在职、按成员范围计入的人数' }),
    deviceCount: field.integer('门禁设备数', { form: false }),
  },
});

const groupList = resourcePaths(kreatorUserGroup).list;

export const kreatorUser = defineResource({
  key: 'kreator-user',
  base: `${prefixes.user}/kreator-user`,
  label: '门禁组成员',
  permission: KREATOR_PERMISSION,
  actions: ['page', 'save', 'remove'],
  names: { save: 'add', remove: 'delete' },
  titleField: 'name',
  fields: {
    groupId: { ...field.reference('门禁组', groupList), list: false },
    name: field.text('姓名', { max: 50, search: 'like' }),
    phone: field.phone('手机号', { search: 'prefix', unique: true, uniqueWithin: 'groupId' }),
    memberId: field.integer('会员编号', { form: false }),
  },
});

export const kreatorUserEndpoints = {
  ...resourcePaths(kreatorUser),
  bind: `${kreatorUser.base}/bind`,
} as const;

/** How many members or devices one call may name. */
const KREATOR_MAX_ITEMS = 1000;

const groupId = idOf('门禁组编号必须是正整数');
const idList = (label: string) =>
  z
    .array(idOf(`${label}编号必须是正整数`), { error: `请选择${label}` })
    .min(1, `请至少选择一个${label}`)
    .max(KREATOR_MAX_ITEMS, `一次最多选择 ${KREATOR_MAX_ITEMS} 个${label}`);

export const kreatorBindBody = z.object({ groupId, memberIds: idList('会员') });
export const kreatorDeviceAddBody = z.object({ groupId, deviceIds: idList('设备') });
export const kreatorDeleteBody = z.object({ ids: idList('记录') });
export const kreatorGroupQuery = z.object({ groupId });
export const kreatorDevicePageQuery = z.object({ groupId, ...pageParams });

/** What bind and kreator-device/add answer: how many joined, how many were in the group already. */
export const kreatorAddedAnswer = z.object({ added: z.number().int(), skipped: z.number().int() });
export type KreatorAddedAnswer = z.infer<typeof kreatorAddedAnswer>;
/** What kreator-device/delete answers. */
export const kreatorRemovedAnswer = z.object({ removed: z.number().int() });

const deviceBase = `${prefixes.hardware}/kreator-device`;
export const kreatorDeviceEndpoints = {
  page: `${deviceBase}/page`,
  add: `${deviceBase}/add`,
  delete: `${deviceBase}/delete`,
} as const;

/**
 * A row of kreator-device/page: the device as 设备管理 lists it, except that `id` is the link's
 * (what `delete` takes); the device's own id is `deviceId`.
 */
export const kreatorDeviceRecord = deviceRecord.extend({ groupId: z.number(), deviceId: z.number() });
export type KreatorDeviceRecord = z.infer<typeof kreatorDeviceRecord>;

export const kreatorFieldLabels = {
  groupId: '门禁组',
  memberIds: '会员',
  deviceIds: '设备',
  ids: '记录',
} as const;

export const kreatorMessages = {
  groupNotFound: '企业门禁组不存在，请刷新列表后重试',
  groupRequired: '请先选择门禁组',
  importGroupRequired: '请先选择要导入的门禁组',
  buildingMissing: '所选楼宇不存在或已被删除，请刷新后重新选择',
  validRange: '失效时间必须晚于生效时间，请重新选择',
  membersMissing: '所选会员中有不存在的会员，请刷新后重新选择',
  devicesMissing: '所选设备中有已注销的设备，请刷新后重新选择',
  deviceOtherBuilding: (deviceName: string) =>
    `设备“${deviceName}”安装在其他楼宇，不能加入本楼宇的门禁组，请重新选择`,
  recordsMissing: '所选记录不存在或已移除，请刷新列表后重试',
  memberDisabled: (phone: string) => `会员 ${phone} 已停用，请先在“会员”中启用后再加入门禁组`,
  bound: (added: number, skipped: number) =>
    skipped
      ? `已加入 ${added} 名会员（${skipped} 名已在组内），设备正在同步权限`
      : `已加入 ${added} 名会员，设备正在同步权限`,
  devicesAdded: (added: number, skipped: number) =>
    skipped
      ? `已添加 ${added} 台设备（${skipped} 台已在组内），设备正在同步权限`
      : `已添加 ${added} 台设备，设备正在同步权限`,
  removed: (n: number) => `已移除 ${n} 条，设备正在同步权限`,
  deviceTakenOut: (deviceName: string) => `设备“${deviceName}”已移出门禁组，正在同步权限`,
} as const;
