/**
 * 门禁联动 (device-set): a set of door devices and the spaces it holds. Members who may be in a held
 * space (a paid booking of a room linked to it, a membership card of its building) may open the
 * set's devices; every change re-syncs the devices it touches at once (apps/server/src/device-link/access.ts).
 *
 * The calls keep the names the console has always used (list, save, edit, remove, detail,
 * edit-relation, remove-relation, the hold and not-hold space-list pages, save-space, remove-space);
 * their shapes, declared below as zod and read by the server's routes and the console alike:
 * - `GET list?name=` every set with its counts (the screen's table; sets are few);
 * - `POST save {name, remark?, deviceIds?}`, `PUT edit {id, name, remark?}`, `DELETE remove/{id}`;
 * - `GET detail/{id}` the set with its devices (status, sync state);
 * - `POST edit-relation {id, deviceIds}` sets the set's devices to exactly these;
 *   `POST remove-relation {id, deviceIds}` takes these out;
 * - `GET hold-space-list/page?id=&current=&size=&name=&buildingId=` the spaces it holds,
 *   `GET not-hold-space-list/page?…` the ones it could hold;
 * - `POST save-space {id, spaceIds}` holds more, `POST remove-space {id, spaceIds}` fewer.
 */
import { z } from 'zod';
import { deviceRecord } from '../devices/device.ts';
import { prefixes } from '../endpoints.ts';
import { pageParams } from '../paging.ts';
import { idOf, valuesOf } from '../validators.ts';
import { buildingIdFilter, spaceKindOptions } from './space.ts';

const base = `${prefixes.hardware}/device-set`;

export const deviceSetEndpoints = {
  list: `${base}/list`,
  save: `${base}/save`,
  edit: `${base}/edit`,
  remove: `${base}/remove`,
  detail: `${base}/detail`,
  editRelation: `${base}/edit-relation`,
  removeRelation: `${base}/remove-relation`,
  holdSpacePage: `${base}/hold-space-list/page`,
  notHoldSpacePage: `${base}/not-hold-space-list/page`,
  saveSpace: `${base}/save-space`,
  removeSpace: `${base}/remove-space`,
} as const;

export const DEVICE_SET_VIEW_PERMISSION = 'hardware:map:view';
export const DEVICE_SET_EDIT_PERMISSION = 'hardware:map:edit';
export const DEVICE_SET_REMOVE_PERMISSION = 'hardware:map:remove';

/** The Chinese names of the body and query fields, for 400 messages. */
export const deviceSetFieldLabels = {
  id: '门禁联动',
  name: '联动名称',
  remark: '备注',
  deviceIds: '设备',
  spaceIds: '空间',
  buildingId: '楼宇',
} as const;

/** How many devices or spaces one call may name. */
const DEVICE_SET_MAX_ITEMS = 1000;

const setId = idOf('门禁联动编号必须是正整数');
const idList = (label: string, min: number) =>
  z
    .array(idOf(`${label}编号必须是正整数`), { error: `请选择${label}` })
    .min(min, `请至少选择一个${label}`)
    .max(DEVICE_SET_MAX_ITEMS, `一次最多选择 ${DEVICE_SET_MAX_ITEMS} 个${label}`);
/** A name searched for (a substring, case-insensitive). */
const nameFilter = z.string().max(50).optional();

const name = z
  .string({ error: '请填写联动名称' })
  .trim()
  .min(1, '请填写联动名称')
  .max(50, '联动名称最多 50 个字符');
const remark = z.string().trim().max(200, '备注最多 200 个字符').nullish();

export const deviceSetSaveBody = z.object({ name, remark, deviceIds: idList('设备', 0).default([]) });
export const deviceSetEditBody = z.object({ id: setId, name, remark });
export const deviceSetRelationBody = z.object({ id: setId, deviceIds: idList('设备', 0) });
export const deviceSetSpacesBody = z.object({ id: setId, spaceIds: idList('空间', 1) });

/** `detail/{id}` and `remove/{id}`. */
export const deviceSetIdParams = z.object({ id: setId });
export const deviceSetListQuery = z.object({ name: nameFilter });
/** The hold and not-hold space pages: the set, paging, and the space's name or building. */
export const deviceSetSpacePageQuery = z.object({
  id: setId,
  ...pageParams,
  name: nameFilter,
  buildingId: buildingIdFilter,
});

export const deviceSetRecord = z.object({
  id: z.number(),
  name: z.string(),
  remark: z.string().nullable(),
  deviceCount: z.number(),
  spaceCount: z.number(),
  updatedAt: z.string(),
});
export type DeviceSetRecord = z.infer<typeof deviceSetRecord>;

/** What `detail/{id}` answers: the set with its devices (status, sync state) as 设备管理 lists them. */
export const deviceSetDetail = deviceSetRecord.extend({ devices: z.array(deviceRecord) });
export type DeviceSetDetail = z.infer<typeof deviceSetDetail>;

/** What `save` answers: the new set's id. */
export const deviceSetSaved = z.object({ id: z.number() });

/** A space in the hold / not-hold pages. */
export const deviceSetSpaceRecord = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(valuesOf(spaceKindOptions)),
  buildingId: z.number(),
  buildingName: z.string().nullable(),
  parentName: z.string().nullable(),
  /** `楼宇 / 上级空间 / 空间`: every building has its 大堂闸机, so a name alone is ambiguous. */
  path: z.string(),
  /** The meeting room or venue the space is, if any. */
  stationName: z.string().nullable(),
});
export type DeviceSetSpaceRecord = z.infer<typeof deviceSetSpaceRecord>;

export const deviceSetMessages = {
  notFound: '门禁联动不存在或已删除，请刷新列表后重试',
  nameTaken: (value: string) => `联动名称“${value}”已存在，请换一个名称`,
  devicesMissing: '所选设备中有已注销的设备，请刷新后重新选择',
  spacesMissing: '所选空间中有已删除的空间，请刷新后重新选择',
  saved: '门禁联动已保存，相关设备正在同步权限',
  removed: '门禁联动已删除，相关设备正在同步权限',
  devicesSaved: (n: number) => `已更新联动设备（共 ${n} 台），设备正在同步权限`,
  devicesRemoved: (n: number) => `已移除 ${n} 台设备，设备正在同步权限`,
  spacesHeld: (n: number) => `已关联 ${n} 个空间，设备正在同步权限`,
  spacesReleased: (n: number) => `已取消关联 ${n} 个空间，设备正在同步权限`,
} as const;
