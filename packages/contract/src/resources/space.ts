/**
 * 物理空间 (space): where door devices are placed, a tree per building: building → floor → room or
 * gate. `sub-space` lists a space's children (the tree loads them as it opens); a space with children
 * or devices cannot be removed.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { defineResource, field, listOption } from '../resource.ts';
import { idOf, valuesOf } from '../validators.ts';

export const spaceKindOptions = [
  { value: 'building', label: '楼栋' },
  { value: 'floor', label: '楼层' },
  { value: 'room', label: '房间' },
  { value: 'gate', label: '出入口' },
] as const;
export type SpaceKind = (typeof spaceKindOptions)[number]['value'];

/** Which kinds a space of each kind may hold; null is the top of a building's tree. */
export const spaceChildKinds: Record<SpaceKind | 'root', readonly SpaceKind[]> = {
  root: ['building', 'floor', 'gate'],
  building: ['floor', 'gate'],
  floor: ['room', 'gate'],
  room: [],
  gate: [],
};

const base = `${prefixes.hardware}/space`;

/**
 * `GET space/list?buildingId=`: every space (or a building's) as an option whose label is its path
 * from the building, `望京SOHO / 3F / 大堂闸机`, by building and then by path.
 */
export const spaceListPath = `${base}/list`;
/** A building to narrow a list to, in queries (space/list, sub-space, 门禁联动's space pages). */
export const buildingIdFilter = idOf('楼宇编号必须是正整数').optional();
export const spaceListQuery = z.object({ buildingId: buildingIdFilter });
export const spaceOption = listOption.extend({ buildingId: z.number() });
export type SpaceOption = z.infer<typeof spaceOption>;

export const space = defineResource({
  key: 'space',
  base,
  label: '空间',
  permission: 'hardware:space',
  fields: {
    buildingId: field.reference('所属楼宇', `${prefixes.building}/building/list`),
    parentId: field.reference('上级空间', spaceListPath, {
      optional: true,
      search: undefined,
      help: '不选则为楼宇下的顶层空间',
    }),
    name: field.text('空间名称', { max: 50, search: 'like' }),
    kind: field.enumeration('空间类型', spaceKindOptions),
    officeStationId: field.reference('关联会议室', `${prefixes.building}/office-station/list`, {
      optional: true,
      list: false,
      shownWhen: { field: 'kind', in: ['room'] },
      help: '会员预订该会议室并付款后，可在预订时段前后 15 分钟打开持有此空间的门禁联动中的设备',
    }),
    activityStationId: field.reference('关联活动场地', `${prefixes.building}/activity-station/list`, {
      optional: true,
      list: false,
      shownWhen: { field: 'kind', in: ['room'] },
      help: '会员预订该活动场地并付款后，同样可以开门',
    }),
    sort: field.sort(),
  },
  // `list` is the module's own (spaceListPath): its options say the building and the spaces above.
  actions: ['page', 'detail', 'save', 'edit', 'remove'],
  titleField: 'name',
  defaultSort: { field: 'sort', order: 'ascend' },
});

/** `GET space/sub-space?buildingId=&parentId=`: the children of a space, or a building's top spaces. */
export const spaceSubSpacePath = `${base}/sub-space`;
export const spaceSubSpaceQuery = z.object({
  buildingId: idOf('楼宇编号必须是正整数'),
  parentId: idOf('上级空间编号必须是正整数').optional(),
});
/** A node of the space tree, as sub-space answers it. */
export const subSpaceRecord = z.object({
  id: z.number(),
  parentId: z.number().nullable(),
  buildingId: z.number(),
  name: z.string(),
  kind: z.enum(valuesOf(spaceKindOptions)),
  sort: z.number(),
  /** Whether it has children (the tree shows an expander). */
  hasChildren: z.boolean(),
  deviceCount: z.number(),
});
export type SubSpaceRecord = z.infer<typeof subSpaceRecord>;

/** Who may read the tree: staff of 物理空间, and of 设备管理 (which places devices in it). */
export const SPACE_TREE_PERMISSIONS = ['hardware:space:view', 'hardware:device:view'];

export const spaceMessages = {
  parentNotFound: '上级空间不存在，请重新选择',
  parentOtherBuilding: '上级空间属于另一栋楼宇，请选择同一楼宇下的空间',
  parentIsSelf: '上级空间不能是它自己或它的下级空间，请重新选择',
  kindNotAllowed: (parentLabel: string, kindLabel: string, allowed: string) =>
    `${parentLabel}下不能添加${kindLabel}，只能添加：${allowed}`,
  stationOtherBuilding: (label: string) => `所选${label}不在该空间的楼宇，请选择同一楼宇的${label}`,
  stationNotRoom: '只有“房间”类型的空间可以关联会议室或活动场地',
  buildingMoved: '已有下级空间的空间不能改到另一栋楼宇，请先移动或删除其下级空间',
  /** What a space may hold when it has no parent: the label naming that place. */
  topLevel: '楼宇顶层',
  /** `users` lists what still uses the space (`下级空间 2 个（…）`). */
  inUse: (users: string) =>
    `该空间仍有${users}，不能删除；请先删除下级空间，把设备移到其他空间或注销，并在门禁联动中移除该空间`,
} as const;
