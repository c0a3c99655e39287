/**
 * 开放平台's events: what the console tells webhooks and group robots, one zod schema per type for
 * the `data` a receiver gets. The server records each in the transaction of the change that causes
 * it (apps/server/src/lib/outbox.ts checks the data against its schema there); the schemas are listed
 * in the API docs (/api/docs) and docs/webhooks.md shows each with its example below.
 *
 * Nothing in an event is a secret: phones are masked (`138****0000`), and no token, password, door
 * code, card number or device secret is ever part of one.
 */
import { z } from 'zod';
import { alarmKinds, alertKinds, spaceModes } from './devices/operations.ts';
import { openMethods } from './devices/open-log.ts';
import { orderKindOptions, orderStatusOptions, payMethodOptions } from './resources/order.ts';
import { valuesOf } from './validators.ts';

export const webhookEventTypes = [
  'door.opened',
  'door.denied',
  'device.online',
  'device.offline',
  'device.alarm.raised',
  'device.alarm.cleared',
  'space.mode.changed',
  'order.paid',
  'order.cancelled',
  'order.refunded',
  'booking.created',
  'booking.cancelled',
  'invoice.issued',
  'invoice.rejected',
  'member.created',
  'enterprise.member.added',
  'enterprise.member.removed',
  'alert.raised',
  'alert.closed',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

export const webhookEventLabels: Record<WebhookEventType, string> = {
  'door.opened': '门已打开',
  'door.denied': '拒绝开门',
  'device.online': '设备上线',
  'device.offline': '设备离线',
  'device.alarm.raised': '设备告警',
  'device.alarm.cleared': '设备告警已恢复',
  'space.mode.changed': '紧急模式变更',
  'order.paid': '订单已支付',
  'order.cancelled': '订单已取消',
  'order.refunded': '订单已退款',
  'booking.created': '新的预订',
  'booking.cancelled': '预订已取消',
  'invoice.issued': '发票已开具',
  'invoice.rejected': '发票已驳回',
  'member.created': '新会员',
  'enterprise.member.added': '企业成员加入',
  'enterprise.member.removed': '企业成员移除',
  'alert.raised': '告警通知',
  'alert.closed': '告警已关闭',
  'webhook.test': '测试事件',
};

/** A time as every answer of the console gives it: ISO 8601 with the business zone's offset. */
const instant = (what: string) =>
  z.string().describe(`${what}：ISO 8601，带业务时区偏移，如 2026-11-21T09:30:00.000+08:00`);

/** A masked phone: never five digits in a row, so a whole number cannot slip into an event. */
const maskedPhone = z
  .string()
  .regex(/^(?!.*\d{5})/, '事件里的手机号必须打码')
  .describe('打码的手机号，如 138****0000');

const id = (what: string) => z.number().int().describe(what);
const nullableId = (what: string) => z.number().int().nullable().describe(what);
const fen = (what: string) => z.number().int().describe(`${what}（分）`);

/** Where a door is: its building and space as they are when the event is recorded. */
const doorPlace = {
  deviceId: nullableId('设备编号（设备已注销时为 null）'),
  sn: z.string().describe('设备序列号'),
  deviceName: z.string().nullable().describe('设备名称'),
  buildingId: nullableId('楼宇编号（设备未放置时为 null）'),
  buildingName: z.string().nullable().describe('楼宇名称'),
  spaceId: nullableId('设备所在空间编号'),
  spaceName: z.string().nullable().describe('设备所在空间名称'),
};

const doorEvent = {
  openLogId: id('开门记录编号'),
  ...doorPlace,
  method: z.enum(openMethods).describe('开门方式：remote 远程开门、totp 动态码、card 刷卡、password 密码'),
  memberId: nullableId('会员编号（知道是哪位会员时）'),
  phone: maskedPhone.nullable(),
  operator: z.string().nullable().describe('远程开门的员工账号；其他方式为 null'),
};

const alarmEvent = {
  alarmId: id('告警记录编号'),
  ...doorPlace,
  kind: z
    .enum(alarmKinds)
    .describe('告警类型：held-open 门长时间未关、forced 强行开门、tamper 防拆、power 断电、fault 故障'),
  detail: z.string().nullable().describe('设备给出的说明'),
  raisedAt: instant('告警发生时间'),
};

const orderEvent = {
  orderId: id('订单编号'),
  orderNo: z.string().describe('订单号，如 MR20261121000123'),
  kind: z.enum(valuesOf(orderKindOptions)).describe('订单类型'),
  status: z.enum(valuesOf(orderStatusOptions)).describe('订单现在的状态'),
  memberId: id('会员编号'),
  phone: maskedPhone,
  productId: id('产品编号（该类型产品表中的编号）'),
  productName: z.string().describe('下单时的产品名称'),
  buildingId: nullableId('楼宇编号'),
  buildingName: z.string().nullable().describe('楼宇名称'),
  quantity: z.number().int().describe('数量'),
  amountFen: fen('订单金额'),
  discountFen: fen('优惠金额'),
  paidFen: fen('实付金额'),
  payMethod: z.enum(valuesOf(payMethodOptions)).nullable().describe('支付方式'),
  startAt: instant('预订或工位的开始时间').nullable(),
  endAt: instant('预订或工位的结束时间').nullable(),
};

const bookingEvent = {
  orderId: id('预订订单编号'),
  orderNo: z.string().describe('订单号'),
  kind: z
    .enum(['office-station', 'activity-station'])
    .describe('office-station 会议室、activity-station 活动场地'),
  memberId: id('会员编号'),
  phone: maskedPhone,
  roomId: id('会议室或活动场地编号'),
  roomName: z.string().describe('会议室或活动场地名称'),
  buildingId: nullableId('楼宇编号'),
  buildingName: z.string().nullable().describe('楼宇名称'),
  startAt: instant('开始时间'),
  endAt: instant('结束时间'),
  amountFen: fen('订单金额'),
  paidFen: fen('实付金额'),
};

const invoiceEvent = {
  invoiceId: id('开票申请编号'),
  kind: z.enum(['invoice', 'tripartite']).describe('invoice 经营发票、tripartite 机场贵宾厅发票'),
  orderType: z.enum(valuesOf(orderKindOptions)).describe('所开订单的类型'),
  orderNos: z.array(z.string()).describe('所开订单的订单号'),
  phone: maskedPhone.nullable(),
  titleType: z.enum(['personal', 'company']).describe('抬头类型：personal 个人、company 企业'),
  title: z.string().describe('发票抬头'),
  taxNo: z.string().nullable().describe('纳税人识别号'),
  invoiceType: z.enum(['normal', 'special']).describe('normal 增值税普通发票、special 增值税专用发票'),
  amountFen: fen('开票金额'),
};

const enterpriseMemberEvent = {
  groupId: id('企业门禁组编号'),
  groupName: z.string().describe('企业门禁组名称'),
  companyName: z.string().describe('企业名称'),
  buildingId: id('楼宇编号'),
  buildingName: z.string().nullable().describe('楼宇名称'),
  memberId: id('会员编号'),
  name: z.string().describe('成员姓名'),
  phone: maskedPhone,
};

const alertEvent = {
  alertId: id('告警通知编号'),
  kind: z.enum(alertKinds).describe('告警类型'),
  title: z.string().describe('标题，如「A 座 3 台门禁设备离线超过 5 分钟」'),
  detail: z.string().nullable().describe('说明'),
  buildingId: nullableId('楼宇编号'),
  deviceId: nullableId('设备编号'),
  link: z.string().nullable().describe('控制台中相关页面的地址（路径）'),
  count: z.number().int().describe('涉及的数量（离线设备数、拒绝次数）'),
  raisedAt: instant('告警时间'),
};

const event = <T extends z.ZodRawShape>(type: WebhookEventType, when: string, shape: T) =>
  z.object(shape).describe(`${webhookEventLabels[type]}（${type}）：${when}`);

export const webhookEventSchemas = {
  'door.opened': event('door.opened', '门禁设备开门成功（任何方式），按设备上报记录一次', {
    ...doorEvent,
    openedAt: instant('开门时间（设备时钟）'),
  }),
  'door.denied': event('door.denied', '门禁设备拒绝开门，按设备上报记录一次', {
    ...doorEvent,
    reason: z.string().nullable().describe('拒绝原因'),
    deniedAt: instant('拒绝时间（设备时钟）'),
  }),
  'device.online': event('device.online', '设备连上控制台（此前离线）', {
    ...doorPlace,
    deviceId: id('设备编号'),
    onlineAt: instant('上线时间'),
  }),
  'device.offline': event('device.offline', '设备断开或心跳超时（此前在线）', {
    ...doorPlace,
    deviceId: id('设备编号'),
    lastSeenAt: instant('最后一次收到设备消息的时间').nullable(),
    offlineAt: instant('判定离线的时间'),
  }),
  'device.alarm.raised': event('device.alarm.raised', '设备上报告警（同一告警只记录一次）', alarmEvent),
  'device.alarm.cleared': event('device.alarm.cleared', '设备上报告警结束', {
    ...alarmEvent,
    clearedAt: instant('告警结束时间'),
  }),
  'space.mode.changed': event('space.mode.changed', '员工设置或解除空间的紧急模式', {
    spaceId: id('空间编号'),
    spaceName: z.string().describe('空间名称'),
    buildingId: id('楼宇编号'),
    buildingName: z.string().nullable().describe('楼宇名称'),
    mode: z.enum(spaceModes).describe('新模式：normal 正常、lockdown 封锁、release 全部常开'),
    previousMode: z.enum(spaceModes).describe('原来的模式'),
    reason: z.string().nullable().describe('原因'),
    changedBy: z.string().nullable().describe('操作员工'),
    changedAt: instant('变更时间'),
  }),
  'order.paid': event('order.paid', '订单确认支付（含后台新建订单时的支付）', {
    ...orderEvent,
    paidAt: instant('支付时间'),
  }),
  'order.cancelled': event('order.cancelled', '待支付的订单被取消', {
    ...orderEvent,
    cancelledAt: instant('取消时间'),
  }),
  'order.refunded': event('order.refunded', '已支付的订单退款', {
    ...orderEvent,
    refundedAt: instant('退款时间'),
  }),
  'booking.created': event('booking.created', '新建会议室或活动场地预订', {
    ...bookingEvent,
    status: z.enum(['pending', 'paid']).describe('pending 待支付、paid 已支付'),
    createdAt: instant('下单时间'),
  }),
  'booking.cancelled': event('booking.cancelled', '预订被取消或退款，时段已释放', {
    ...bookingEvent,
    status: z.enum(['cancelled', 'refunded']).describe('cancelled 已取消、refunded 已退款'),
    cancelledAt: instant('取消或退款时间'),
  }),
  'invoice.issued': event('invoice.issued', '开票申请已开具发票', {
    ...invoiceEvent,
    invoiceNo: z.string().describe('发票号码'),
    fileUrl: z.string().nullable().describe('发票 PDF 在控制台的地址（员工登录或接口密钥可下载）'),
    issuedAt: instant('开具时间'),
  }),
  'invoice.rejected': event('invoice.rejected', '开票申请被驳回（订单可重新申请）', {
    ...invoiceEvent,
    rejectReason: z.string().describe('驳回原因'),
    rejectedAt: instant('驳回时间'),
  }),
  'member.created': event('member.created', '新会员建立（如企业门禁组导入了新手机号）', {
    memberId: id('会员编号'),
    phone: maskedPhone,
    nickname: z.string().describe('昵称'),
    companyName: z.string().nullable().describe('公司'),
    sourceId: nullableId('会员来源编号'),
    sourceName: z.string().nullable().describe('会员来源'),
    registeredAt: instant('注册时间'),
  }),
  'enterprise.member.added': event(
    'enterprise.member.added',
    '成员加入企业门禁组：逐个添加或 Excel 导入，或企业新增的员工按门禁组的成员范围（全部在职员工、指定部门）加入',
    {
      ...enterpriseMemberEvent,
      validFrom: instant('门禁组生效时间'),
      validTo: instant('门禁组到期时间'),
      addedAt: instant('加入时间'),
    },
  ),
  'enterprise.member.removed': event(
    'enterprise.member.removed',
    '成员移出企业门禁组：逐个移除，员工离职或从企业员工中删除，或门禁组的成员范围改变',
    {
      ...enterpriseMemberEvent,
      removedAt: instant('移出时间'),
    },
  ),
  'alert.raised': event('alert.raised', '控制台产生一条告警通知（同一原因只产生一次）', alertEvent),
  'alert.closed': event('alert.closed', '告警的原因已消失，告警自动关闭', {
    ...alertEvent,
    closedAt: instant('关闭时间'),
  }),
  'webhook.test': event('webhook.test', '在开放平台点击「发送测试」', {
    endpointId: id('推送地址编号'),
    endpointName: z.string().describe('推送地址名称'),
    message: z.string().describe('说明文字'),
    sentBy: z.string().nullable().describe('点击发送测试的员工'),
  }),
} satisfies { [T in WebhookEventType]: z.ZodType };

export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof webhookEventSchemas)[T]>;

const door = {
  deviceId: 12,
  sn: 'CW-A-0101',
  deviceName: 'A 座 1 层大门',
  buildingId: 3,
  buildingName: '望京 SOHO A 座',
  spaceId: 41,
  spaceName: '1 层大堂',
};
const order = {
  memberId: 5208,
  phone: '138****0000',
  buildingId: 3,
  buildingName: '望京 SOHO A 座',
  quantity: 1,
};
const room = {
  orderId: 20931,
  orderNo: 'MR20261121000123',
  kind: 'office-station' as const,
  ...order,
  productId: 7,
  productName: '301 会议室（12 人）',
  amountFen: 40000,
  discountFen: 0,
  paidFen: 40000,
  payMethod: 'wechat' as const,
  startAt: '2026-11-21T14:00:00.000+08:00',
  endAt: '2026-11-21T16:00:00.000+08:00',
};
const booking = {
  orderId: room.orderId,
  orderNo: room.orderNo,
  kind: room.kind,
  memberId: order.memberId,
  phone: order.phone,
  roomId: room.productId,
  roomName: room.productName,
  buildingId: order.buildingId,
  buildingName: order.buildingName,
  startAt: room.startAt,
  endAt: room.endAt,
  amountFen: room.amountFen,
  paidFen: room.paidFen,
};
const invoice = {
  invoiceId: 318,
  kind: 'invoice' as const,
  orderType: 'office-station' as const,
  orderNos: ['MR20261121000123'],
  phone: '138****0000',
  titleType: 'company' as const,
  title: '北京云舟科技有限公司',
  taxNo: '91110105MA01ABCD2X',
  invoiceType: 'normal' as const,
  amountFen: 40000,
};
const enterpriseMember = {
  groupId: 9,
  groupName: '云舟科技 A 座门禁',
  companyName: '北京云舟科技有限公司',
  buildingId: 3,
  buildingName: '望京 SOHO A 座',
  memberId: 5311,
  name: '李娜',
  phone: '139****8821',
};
const alert = {
  alertId: 77,
  kind: 'device-offline' as const,
  title: '望京 SOHO A 座 3 台门禁设备离线超过 5 分钟',
  detail: 'A 座 1 层大门、A 座 2 层东门、A 座 2 层西门',
  buildingId: 3,
  deviceId: null,
  link: '/hardware/device?buildingId=3&status=offline',
  count: 3,
  raisedAt: '2026-11-21T09:36:00.000+08:00',
};

/** One realistic `data` of each type (a test checks each against its schema; docs/webhooks.md shows them). */
export const webhookEventExamples: { [T in WebhookEventType]: WebhookEventData<T> } = {
  'door.opened': {
    openLogId: 90412,
    ...door,
    method: 'totp',
    memberId: 5208,
    phone: '138****0000',
    operator: null,
    openedAt: '2026-11-21T09:30:12.000+08:00',
  },
  'door.denied': {
    openLogId: 90436,
    ...door,
    method: 'card',
    memberId: null,
    phone: null,
    operator: null,
    reason: '卡未授权',
    deniedAt: '2026-11-21T22:41:05.000+08:00',
  },
  'device.online': { ...door, onlineAt: '2026-11-21T09:31:00.000+08:00' },
  'device.offline': {
    ...door,
    lastSeenAt: '2026-11-21T09:29:40.000+08:00',
    offlineAt: '2026-11-21T09:31:10.000+08:00',
  },
  'device.alarm.raised': {
    alarmId: 1502,
    ...door,
    kind: 'forced',
    detail: '门磁检测到未授权开门',
    raisedAt: '2026-11-21T23:12:44.000+08:00',
  },
  'device.alarm.cleared': {
    alarmId: 1502,
    ...door,
    kind: 'forced',
    detail: '门磁检测到未授权开门',
    raisedAt: '2026-11-21T23:12:44.000+08:00',
    clearedAt: '2026-11-21T23:13:20.000+08:00',
  },
  'space.mode.changed': {
    spaceId: 40,
    spaceName: '1 层',
    buildingId: 3,
    buildingName: '望京 SOHO A 座',
    mode: 'lockdown',
    previousMode: 'normal',
    reason: '消防演练，封锁 1 层',
    changedBy: '张伟',
    changedAt: '2026-11-21T10:00:00.000+08:00',
  },
  'order.paid': { ...room, status: 'paid', paidAt: '2026-11-20T18:22:31.000+08:00' },
  'order.cancelled': {
    ...room,
    status: 'cancelled',
    paidFen: 0,
    payMethod: null,
    cancelledAt: '2026-11-20T18:40:00.000+08:00',
  },
  'order.refunded': { ...room, status: 'refunded', refundedAt: '2026-11-21T08:05:12.000+08:00' },
  'booking.created': { ...booking, status: 'paid', createdAt: '2026-11-20T18:22:31.000+08:00' },
  'booking.cancelled': { ...booking, status: 'refunded', cancelledAt: '2026-11-21T08:05:12.000+08:00' },
  'invoice.issued': {
    ...invoice,
    invoiceNo: '24112000000123456789',
    fileUrl: '/file/uploads/2026/11/22/9f3c1a7e-invoice-318.pdf',
    issuedAt: '2026-11-22T11:00:00.000+08:00',
  },
  'invoice.rejected': {
    ...invoice,
    rejectReason: '纳税人识别号与抬头不符，请核对后重新申请',
    rejectedAt: '2026-11-22T11:00:00.000+08:00',
  },
  'member.created': {
    memberId: 5311,
    phone: '139****8821',
    nickname: '李娜',
    companyName: '北京云舟科技有限公司',
    sourceId: 4,
    sourceName: '企业导入',
    registeredAt: '2026-11-21T15:20:00.000+08:00',
  },
  'enterprise.member.added': {
    ...enterpriseMember,
    validFrom: '2026-11-01T00:00:00.000+08:00',
    validTo: '2027-10-31T23:59:59.000+08:00',
    addedAt: '2026-11-21T15:20:00.000+08:00',
  },
  'enterprise.member.removed': { ...enterpriseMember, removedAt: '2026-12-31T18:00:00.000+08:00' },
  'alert.raised': alert,
  'alert.closed': { ...alert, closedAt: '2026-11-21T09:52:30.000+08:00' },
  'webhook.test': {
    endpointId: 2,
    endpointName: '金蝶财务对接',
    message: '这是一条测试事件，收到即说明推送地址可用',
    sentBy: '张伟',
  },
};
