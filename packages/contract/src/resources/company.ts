/**
 * 企业 (/enterprise/company): a company record and its one staff list (企业员工). Its access groups
 * (企业门禁组) and meeting-card pools (企业会议卡) reference it and take their people from the list:
 * all active staff, those of chosen departments, or chosen people (`staffScope`).
 * - company: `GET page` (`current, size, name, creditCode, status`), `GET detail/{id}`, `POST save`,
 *   `PUT edit`, `DELETE remove/{id}` (409 naming the staff, groups and cards it still has),
 *   `GET list` (`{value, label, invoiceTitle, taxNo, status}`: the 开票 form prefills from it),
 *   `GET orders?id=` (the bookings paid with its cards).
 * - company-staff: `GET page?companyId=` (name, phone, department, status), `POST add`, `PUT edit`,
 *   `POST leave {ids, leftAt?}` (离职), `DELETE remove {ids}` or `remove/{id}`, the Excel import
 *   `POST import/excel?companyId=` with `GET import/template?companyId=`, `GET export?companyId=`,
 *   `GET departments?companyId=`. Leaving or removing ends at once, in one transaction, everything
 *   the company gave the person (its groups' doors, its cards' bookings); the answer says what ended.
 * The company's 操作记录 is `audit-log/page?companyId=`; its invoices are `invoice/page?taxNo=`.
 */
import { z } from 'zod';
import { prefixes } from '../endpoints.ts';
import { pageParams } from '../paging.ts';
import { defineResource, field, resourcePaths } from '../resource.ts';
import { blankAsNull, idOf, valuesOf } from '../validators.ts';
import { creditCodeMessages, creditCodeProblem, TAX_NO_PATTERN, taxNoMessages } from '../credit-code.ts';
import { importPaths } from '../excel-import.ts';

export const COMPANY_PERMISSION = 'enterprise:company';

export const companyStatusOptions = [
  { value: 'enabled', label: '合作中', color: 'green' },
  { value: 'disabled', label: '已停用', color: 'default' },
] as const;

/** Whom an access group or a meeting-card pool takes from its company's active staff. */
export const staffScopeOptions = [
  { value: 'all', label: '全部在职员工' },
  { value: 'departments', label: '指定部门' },
  { value: 'people', label: '指定人员' },
] as const;
export type StaffScope = (typeof staffScopeOptions)[number]['value'];

/** Whom a group or card takes from its company's staff; left out, the chosen people (as before companies). */
export const staffScopeField = () => ({
  ...field.enumeration('成员范围', staffScopeOptions, {
    help: '全部在职员工、指定部门：企业新增或离职的员工自动加入或移出',
  }),
  schema: z.enum(valuesOf(staffScopeOptions), { error: '请选择成员范围' }).default('people'),
});
/** A list the form hides (`shownWhen`) and then sends as null: null is the empty list. */
export const listClearedWhenHidden = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === null ? [] : v), schema);

const departmentTags = field.tags('部门', { max: 50, help: '这些部门的在职员工' });
export const departmentsField = () => ({
  ...departmentTags,
  schema: listClearedWhenHidden(departmentTags.schema),
  shownWhen: { field: 'staffScope', in: ['departments'] },
});

export const staffStatusOptions = [
  { value: 'active', label: '在职', color: 'green' },
  { value: 'left', label: '离职', color: 'default' },
] as const;

/** 统一社会信用代码: optional (companies made from old names have none), upper-cased, check digit verified. */
const creditCodeSchema = blankAsNull(
  z
    .string({ error: creditCodeMessages.shape })
    .trim()
    .transform((v) => v.toUpperCase())
    .superRefine((v, ctx) => {
      const problem = creditCodeProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

const taxNoSchema = blankAsNull(
  z
    .string({ error: taxNoMessages.invalid })
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(TAX_NO_PATTERN, taxNoMessages.invalid)),
);

const base = `${prefixes.user}/company`;

export const company = defineResource({
  key: 'company',
  base,
  label: '企业',
  permission: COMPANY_PERMISSION,
  actions: ['page', 'detail', 'save', 'edit', 'remove', 'list'],
  defaultSort: { field: 'name', order: 'ascend' },
  fields: {
    name: field.text('企业名称', { max: 100, search: 'like', sortable: true }),
    creditCode: {
      ...field.text('统一社会信用代码', { max: 18, optional: true, search: 'prefix' }),
      schema: creditCodeSchema,
      help: '18 位，见营业执照；保存时核对校验位',
    },
    contactName: field.text('联系人', { max: 50, optional: true }),
    contactPhone: field.phone('联系电话', { optional: true }),
    buildingIds: { ...field.references('入驻楼宇', `${prefixes.building}/building/list`), list: true },
    validFrom: field.datetime('合同生效', { optional: true }),
    validTo: field.datetime('合同到期', {
      optional: true,
      sortable: true,
      help: '到期后企业门禁组不能再开门；不填则不限',
    }),
    status: {
      ...field.enumeration('状态', companyStatusOptions, { help: '停用后该企业的门禁组立即不能开门' }),
      schema: z.enum(valuesOf(companyStatusOptions), { error: '请选择状态' }).default('enabled'),
    },
    invoiceTitle: { ...field.text('发票抬头', { max: 100, optional: true }), list: false },
    taxNo: {
      ...field.text('税号', { max: 20, optional: true }),
      schema: taxNoSchema,
      list: false,
      help: '开票时预填；一般与统一社会信用代码相同',
    },
    logo: { ...field.image('企业标志'), list: false },
    remark: field.textarea('备注', { max: 500, optional: true }),
    staffCount: field.integer('在职员工', { form: false }),
  },
});

const companyPaths = resourcePaths(company);

export const companyEndpoints = {
  ...companyPaths,
  /** GET `?id=&current=&size=`: the meeting-room and venue bookings paid with the company's cards. */
  orders: `${base}/orders`,
} as const;

/** An option of `company/list`: the company with what 开票 prefills. */
export const companyOption = z.object({
  value: z.number().int(),
  label: z.string(),
  status: z.string(),
  invoiceTitle: z.string().nullable(),
  taxNo: z.string().nullable(),
});
export type CompanyOption = z.infer<typeof companyOption>;

/** A row of `company/orders`. */
export const companyOrderRecord = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  kind: z.string(),
  productName: z.string().nullable(),
  memberPhone: z.string(),
  paidFen: z.number().int(),
  status: z.string(),
  paidAt: z.string().nullable(),
  cardNo: z.string(),
});
export type CompanyOrderRecord = z.infer<typeof companyOrderRecord>;
export const companyOrdersQuery = z.object({ id: idOf('企业编号必须是正整数'), ...pageParams });

const companyList = companyPaths.list;

export const companyStaff = defineResource({
  key: 'company-staff',
  base: `${prefixes.user}/company-staff`,
  label: '企业员工',
  permission: COMPANY_PERMISSION,
  actions: ['page', 'save', 'edit', 'remove'],
  names: { save: 'add' },
  titleField: 'name',
  fields: {
    companyId: { ...field.reference('企业', companyList), list: false, createOnly: true },
    name: field.text('姓名', { max: 50, search: 'like' }),
    phone: {
      ...field.phone('手机号', { search: 'prefix', unique: true, uniqueWithin: 'companyId' }),
      createOnly: true,
      help: '按手机号找到会员；没有时新建一位（来源：企业导入）',
    },
    department: field.text('部门', { max: 50, optional: true, search: 'eq' }),
    status: { ...field.enumeration('状态', staffStatusOptions), form: false },
    joinedAt: field.datetime('入职日期', { optional: true, sortable: true, help: '不填则为今天' }),
    leftAt: { ...field.datetime('离职日期', { optional: true }), form: false },
    memberId: field.integer('会员编号', { form: false, list: false }),
  },
});

const staffBase = companyStaff.base;
export const companyStaffEndpoints = {
  ...resourcePaths(companyStaff),
  ...importPaths(companyStaff),
  /** POST `{ids, leftAt?}`: 离职. */
  leave: `${staffBase}/leave`,
  /** GET `?companyId=&…page filters`: the list as an Excel file. */
  export: `${staffBase}/export`,
  /** GET `?companyId=`: the company's departments (those its staff and groups name), sorted. */
  departments: `${staffBase}/departments`,
} as const;

/** How many staff one call may name. */
export const COMPANY_STAFF_MAX_IDS = 1000;
const staffIds = z
  .array(idOf('员工编号必须是正整数'), { error: '请选择员工' })
  .min(1, '请至少选择一名员工')
  .max(COMPANY_STAFF_MAX_IDS, `一次最多选择 ${COMPANY_STAFF_MAX_IDS} 名员工`);

export const companyStaffLeaveBody = z.object({
  ids: staffIds,
  leftAt: companyStaff.fields.leftAt.schema,
});
export const companyStaffRemoveBody = z.object({ ids: staffIds });
export const companyIdQuery = z.object({ companyId: idOf('请先选择企业') });

/** What leave and remove answer: who, and what ended for them. */
export const staffEndedAnswer = z.object({
  count: z.number().int(),
  groups: z.array(z.string()),
  cards: z.array(z.string()),
});
export type StaffEndedAnswer = z.infer<typeof staffEndedAnswer>;

export const companyFieldLabels = {
  companyId: '企业',
  ids: '员工',
  leftAt: '离职日期',
  id: '企业',
} as const;

/** Names in a sentence: 张三、李四 and, past five, “等 12 人”. */
const namesOf = (names: readonly string[]) =>
  names.length <= 5 ? names.join('、') : `${names.slice(0, 5).join('、')}等 ${names.length} 人`;
const quotedAll = (values: readonly string[]) => values.map((v) => `“${v}”`).join('');

/** The sentence of a 离职 or removal: what ended for these people. */
export function staffEndedSentence(
  verb: '已离职' | '已从员工列表删除',
  names: readonly string[],
  ended: { groups: readonly string[]; cards: readonly string[] },
) {
  const parts = [
    ...(ended.groups.length ? [`已移出门禁组${quotedAll(ended.groups)}`] : []),
    ...(ended.cards.length ? [`不能再用企业会议卡${quotedAll(ended.cards)}支付`] : []),
  ];
  if (parts.length === 0) return `${namesOf(names)}${verb}；没有需要收回的门禁组和企业会议卡`;
  return `${namesOf(names)}${verb}：${parts.join('，')}${ended.groups.length ? '；门禁设备正在同步权限' : ''}`;
}

export const companyMessages = {
  notFound: '该企业不存在或已被删除，请刷新列表后重试',
  duplicateName: (name: string) => `已有名为“${name}”的企业，请换一个名称，或直接使用已有的企业`,
  duplicateCreditCode: (name: string) => `该统一社会信用代码已用于企业“${name}”，请核对后重试`,
  validRange: '合同到期必须晚于合同生效，请重新选择',
  buildingMissing: '所选楼宇中有不存在的楼宇，请刷新后重新选择',
  /** The 409 of removing a company that still has these (员工 3 名, 门禁组“A”, 企业会议卡“QY…”). */
  inUse: (what: readonly string[]) =>
    `该企业还有${what.join('、')}，不能删除；请先删除员工、门禁组和企业会议卡，或把企业停用`,
  staffRequired: '请先选择企业',
  staffMissing: '所选员工不存在或已删除，请刷新列表后重试',
  alreadyLeft: (name: string) => `${name}已经离职，无需再次办理`,
  leftBeforeJoined: (name: string) => `${name}的离职日期早于入职日期，请重新选择`,
  memberDisabled: (phone: string) => `会员 ${phone} 已停用，请先在“会员”中启用后再加入企业`,
  /** Choosing for a group someone who has left the company. */
  hasLeft: (name: string, companyName: string) =>
    `${name}已从企业“${companyName}”离职；如需再次加入，请先在该企业的员工列表中重新添加`,
  phoneTaken: (phone: string) => `手机号 ${phone} 已在本企业员工列表中，请勿重复添加`,
  /** A person added again after leaving comes back (在职). */
  rejoined: (name: string) => `${name}已重新入职`,
  added: (name: string, groups: number) =>
    groups ? `已添加员工${name}，已按成员范围加入 ${groups} 个门禁组，设备正在同步权限` : `已添加员工${name}`,
} as const;

/** The ledger's and groups' messages about staff scopes. */
export const staffScopeMessages = {
  /** kreator-user add/bind/import into a group that takes all staff or departments. */
  notPeopleGroup: (groupName: string, scopeLabel: string) =>
    `门禁组“${groupName}”的成员范围是“${scopeLabel}”，成员随企业员工列表自动变化，不能逐个添加；如需指定人员，请先把成员范围改为“指定人员”`,
  departmentsRequired: '成员范围为“指定部门”时请至少选择一个部门',
  /** company-card memberPhones naming a phone that is not active staff of the company. */
  notStaff: (phone: string, companyName: string) =>
    `手机号 ${phone} 不是企业“${companyName}”的在职员工，请先在企业员工中添加，再选为可用员工`,
  companyMissing: '所选企业不存在或已被删除，请刷新后重新选择',
} as const;
