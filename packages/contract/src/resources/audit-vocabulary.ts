/**
 * 操作日志 in Chinese: what each recorded resource and action is called, and each resource's field
 * labels for the before/after diff. The labels are the resources' own, so a field renamed on its
 * screen is renamed here too; the few audited names that are not resources are listed beside them.
 */
import type { Field, ResourceDef } from '../resource.ts';
import { agreement } from './agreement.ts';
import { airportCode } from './airport-code.ts';
import { airportProduct } from './airport-product.ts';
import { banner } from './banner.ts';
import { brightPoint } from './bright-point.ts';
import { companyCard } from './company-card.ts';
import { company, companyStaff } from './company.ts';
import { buildingChargePerson } from './building-charge-person.ts';
import { buildingRule } from './building-rule.ts';
import { building } from './building.ts';
import { csrCapitalSite } from './csr-capital-site.ts';
import { csrCapitalWebsite } from './csr-capital-website.ts';
import { dictItem } from './dict-item.ts';
import { dict } from './dict.ts';
import { invoice, tripartiteInvoice } from './invoice.ts';
import { kreatorUser, kreatorUserGroup } from './kreator.ts';
import { member } from './member.ts';
import { merchantShare } from './merchant-share.ts';
import { merchant } from './merchant.ts';
import { orderActions, orderResources } from './order.ts';
import { hallSeat, officeSeat } from './seat.ts';
import { source } from './source.ts';
import { space } from './space.ts';
import { menu } from './sso-menu.ts';
import { role } from './sso-role.ts';
import { ssoUser } from './sso-user.ts';
import { activityStation, officeStation } from './station.ts';
import { teamCard } from './team-card.ts';
import { userCard } from './user-card.ts';

const resources: Pick<ResourceDef, 'key' | 'label' | 'fields'>[] = [
  agreement,
  airportCode,
  airportProduct,
  banner,
  brightPoint,
  buildingChargePerson,
  buildingRule,
  building,
  company,
  companyCard,
  companyStaff,
  csrCapitalSite,
  csrCapitalWebsite,
  dictItem,
  dict,
  invoice,
  tripartiteInvoice,
  kreatorUser,
  kreatorUserGroup,
  member,
  merchantShare,
  merchant,
  ...orderResources,
  hallSeat,
  officeSeat,
  source,
  space,
  menu,
  role,
  ssoUser,
  activityStation,
  officeStation,
  teamCard,
  userCard,
];

/** Audited names that are not resources of the contract. */
const otherResources: Record<string, string> = {
  auth: '登录认证',
  oss: '文件',
  'sso-role-group': '角色分组',
  device: '门禁设备',
  'device-set': '门禁组',
  'kreator-device': '企业门禁组设备',
  profile: '个人中心',
};

/** Resource key → its Chinese name, for the 资源 column and filter. */
export const auditResourceLabels: Readonly<Record<string, string>> = {
  ...Object.fromEntries(resources.map((r) => [r.key, r.label])),
  ...otherResources,
};

/** Action → its Chinese name, for the 操作 column and filter. */
export const auditActionLabels: Readonly<Record<string, string>> = {
  'sign-in': '登录',
  logout: '退出登录',
  'refresh-reuse': '刷新令牌被重复使用',
  'create-administrator': '创建管理员',
  save: '新增',
  edit: '修改',
  remove: '删除',
  publish: '上架',
  unpublish: '下架',
  'edit-published': '上下架',
  enable: '启用',
  disable: '停用',
  'edit-password': '修改密码',
  'edit-account-status': '启用/停用账号',
  'edit-profile': '修改个人资料',
  'edit-referrer-phone': '修改推荐人手机号',
  'save-record': '添加跟进记录',
  import: '导入',
  export: '导出',
  upload: '上传',
  sort: '排序',
  init: '初始化',
  issue: '开票',
  reject: '驳回',
  void: '作废',
  register: '设备注册',
  unregister: '设备注销',
  view: '查看',
  add: '添加',
  bind: '绑定会员',
  leave: '离职',
  'top-up': '充值',
  'balance-deduct': '扣减余额',
  'balance-restore': '恢复余额',
  ...Object.fromEntries(Object.entries(orderActions).map(([action, { label }]) => [action, label])),
};

export const auditResourceLabel = (key: string) => auditResourceLabels[key] ?? key;
export const auditActionLabel = (action: string) => auditActionLabels[action] ?? action;

/** The fields of an audited resource, for labels and formatting in the diff (empty when not a resource). */
export const auditFieldsOf = (key: string): Readonly<Record<string, Field>> =>
  resources.find((r) => r.key === key)?.fields ?? {};

/** Labels of fields that are not on a resource's form but appear in its entries. */
export const auditCommonFieldLabels: Readonly<Record<string, string>> = {
  id: '编号',
  status: '状态',
  reason: '原因',
  published: '发布状态',
  createdAt: '创建时间',
  updatedAt: '更新时间',
  createdBy: '创建人',
  updatedBy: '修改人',
  username: '用户名',
  nickname: '昵称',
  permissions: '权限编码',
  menuIds: '菜单',
  roleIds: '角色',
  freedOrders: '释放的订单',
  deviceIds: '设备',
  spaceIds: '空间',
  key: '文件键',
  originalName: '文件名',
  contentType: '文件类型',
  sizeBytes: '大小（字节）',
  balanceFen: '余额',
  invoiceNo: '发票号码',
  fileUrl: '发票文件',
  referrerPhone: '推荐人手机号',
  name: '名称',
};
