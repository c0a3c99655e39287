/**
 * The console's route table: one place that names every screen, its menu group,
 * its meta (name, pageTitle, openNames, sort) and its permission codes. The web registers the
 * routes whose screen is built; the server seeds the demo menu and permission catalogue from it.
 */

interface MenuGroup {
  /** Path segment and icon key, e.g. `system`. */
  key: string;
  /** Chinese menu name. */
  name: string;
  sort: number;
}

export interface ConsoleRoute {
  path: string;
  /** Route name (unique): `index`, `personal`, `login`, `404`, or group + leaf, e.g. `systemLog`. */
  name: string;
  /** Equal to the menu name; the route guard matches it against the user's menu. */
  pageTitle: string;
  /** Menu groups (by name) opened when this route is shown. */
  openNames: string[];
  /** Order within its group. */
  sort: number;
  /** Group key, or undefined for routes outside the menu (home, personal, login, 404). */
  group?: string;
  /** The page module that renders it (several routes may share one page). */
  page: string;
  /** Whether the screen is built; unbuilt routes are neither registered nor put in the menu. */
  built: boolean;
}

export const menuGroups: MenuGroup[] = [
  { key: 'merchant', name: '商户服务', sort: 1 },
  { key: 'building', name: '楼宇管理', sort: 2 },
  { key: 'product', name: '产品管理', sort: 3 },
  { key: 'order', name: '订单管理', sort: 4 },
  { key: 'invoice', name: '发票管理', sort: 5 },
  { key: 'clue', name: '线索管理', sort: 6 },
  { key: 'user', name: '用户管理', sort: 7 },
  { key: 'system', name: '系统配置', sort: 8 },
  { key: 'hardware', name: '智能硬件', sort: 9 },
  { key: 'enterprise', name: '企业管理', sort: 10 },
  { key: 'operation', name: '运营中心', sort: 11 },
];

/** [group key, leaf path segment, Chinese name, page module, built] in menu order. */
const leaves: [string, string, string, string, boolean][] = [
  ['merchant', 'brand', '商户管理', 'merchant/brand', true],
  ['merchant', 'rule', '分账规则', 'merchant/rule', true],
  ['merchant', 'share', '商户分账', 'merchant/share', true],
  ['building', 'list', '楼宇列表', 'building/list', true],
  ['building', 'person', '楼宇负责人', 'building/person', true],
  ['product', 'member', '会员卡', 'product/member', true],
  ['product', 'meeting', '会议卡', 'product/meeting', true],
  ['product', 'seat', '工位', 'product/seat', true],
  ['product', 'meetingRoom', '会议室', 'product/station', true],
  ['product', 'activityVenue', '活动场地', 'product/station', true],
  ['product', 'airport', '机场贵宾厅', 'product/airport', true],
  ['order', 'member', '会员卡订单', 'order/member', true],
  ['order', 'meeting', '会议卡订单', 'order/meeting', true],
  ['order', 'seat', '工位订单', 'order/seat', true],
  ['order', 'meetingRoom', '会议室订单', 'order/station', true],
  ['order', 'activityVenue', '活动场地订单', 'order/station', true],
  ['order', 'airport', '机场贵宾厅订单', 'order/airport', true],
  ['invoice', 'jingying', '经营发票', 'invoice/invoice', true],
  ['invoice', 'airport', '机场贵宾厅发票', 'invoice/invoice', true],
  ['clue', 'place', '定制场地', 'clue/place', true],
  ['clue', 'cooperate', '物业合作', 'clue/cooperate', true],
  ['user', 'admin', '后台用户', 'user/admin', true],
  ['user', 'member', '会员', 'user/member', true],
  ['system', 'banner', '轮播图', 'system/banner', true],
  ['system', 'news', '案例新闻', 'system/banner', true],
  ['system', 'menu', '菜单配置', 'system/menu', true],
  ['system', 'role', '角色权限', 'system/role', true],
  ['system', 'source', '来源配置', 'system/source', true],
  ['system', 'facilities', '设施配置', 'system/facilities', true],
  ['system', 'dict', '数据字典', 'system/dict', true],
  ['system', 'agreement', '隐私协议', 'system/agreement', true],
  ['system', 'airport', '机场三字码', 'system/airport', true],
  ['system', 'rule', '行为项配置', 'system/rule', true],
  ['system', 'log', '操作日志', 'system/log', true],
  ['system', 'open', '开放平台', 'system/open', true],
  ['hardware', 'space', '物理空间', 'hardware/space', true],
  ['hardware', 'device', '设备管理', 'hardware/device', true],
  ['hardware', 'log', '开门记录', 'hardware/log', true],
  ['hardware', 'map', '门禁联动', 'hardware/map', true],
  ['hardware', 'alarm', '告警记录', 'hardware/alarm', true],
  ['hardware', 'firmware', '固件升级', 'hardware/firmware', true],
  ['enterprise', 'company', '企业', 'enterprise/company', true],
  ['enterprise', 'accessControl', '企业门禁组', 'enterprise/kreatorUserGroup', true],
  ['enterprise', 'teamCard', '企业会议卡', 'enterprise/teamCard', true],
  ['operation', 'meeting', '会议卡活动', 'operation/meeting', true],
];

const groupName = (key: string) => menuGroups.find((g) => g.key === key)!.name;
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Routes outside the menu. Their names are the ones the product tests for. */
const shellRoutes: ConsoleRoute[] = [
  { path: '/login', name: 'login', pageTitle: '登录', openNames: [], sort: 0, page: 'login', built: true },
  { path: '/', name: 'index', pageTitle: '首页', openNames: [], sort: 0, page: 'home', built: true },
  {
    path: '/personal',
    name: 'personal',
    pageTitle: '个人中心',
    openNames: [],
    sort: 0,
    page: 'personal',
    built: true,
  },
  { path: '*', name: '404', pageTitle: '页面不存在', openNames: [], sort: 0, page: 'not-found', built: true },
];

/** The menu screens, each with its group's name in openNames and its order within the group. */
export const menuRoutes: ConsoleRoute[] = leaves.map(([group, leaf, name, page, built]) => ({
  path: `/${group}/${leaf}`,
  name: group + capitalize(leaf),
  pageTitle: name,
  openNames: [groupName(group)],
  sort: leaves.filter((l) => l[0] === group).findIndex((l) => l[1] === leaf) + 1,
  group,
  page,
  built,
}));

export const consoleRoutes: ConsoleRoute[] = [...shellRoutes, ...menuRoutes];

/** Routes the guard lets through whatever the user's menu tree names; any other needs its menu entry. */
export const unguardedRouteNames = ['index', 'personal', 'login', '404'];

/**
 * Permission codes of a screen: `{group}:{leaf}:view` reads, `:edit` creates and changes,
 * `:remove` deletes. Server routes declare one of these; roles grant them.
 */
export const permissionOf = (route: Pick<ConsoleRoute, 'path'>, action: 'view' | 'edit' | 'remove') =>
  `${permissionPrefixOf(route)}:${action}`;

/** The `{group}:{leaf}` every code of a screen starts with (its operations' too, resources/operations.ts). */
export const permissionPrefixOf = (route: Pick<ConsoleRoute, 'path'>) =>
  route.path.slice(1).replace('/', ':');

/** Permission to manage other staff accounts (reset their passwords, disable them). */
export const USER_MANAGE_PERMISSION = 'user:admin:edit';
/** Permission to read the audit log. */
export const AUDIT_LOG_PERMISSION = 'system:log:view';
