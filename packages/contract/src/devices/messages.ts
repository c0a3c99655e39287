/**
 * What the console API says about devices, in the Chinese both the server's answers and the
 * console's forms show: each sentence written once, here or in the schema that refuses a value.
 */
import {
  ADMIN_PASSWORD_MAX_DIGITS,
  ADMIN_PASSWORD_MIN_DIGITS,
  MAX_ADMIN_PASSWORDS,
  MAX_CARD_RULES,
  OPEN_DOOR_MAX_S,
  OPEN_DOOR_MIN_S,
} from './protocol.ts';

export const deviceMessages = {
  snInvalid: '设备序列号只能包含字母、数字、下划线和短横线，长度 1–64，请检查后重试',
  snTaken: (sn: string) => `设备序列号“${sn}”已注册，请勿重复注册`,
  /** An sn that is the console's own MQTT username: refused at register. */
  snIsConsole: (sn: string) =>
    `设备序列号“${sn}”与控制台连接 MQTT 代理所用的用户名相同，不能用作设备序列号；请给设备换一个序列号后重新上报`,
  notWaiting: (sn: string) =>
    `设备“${sn}”尚未用注册密钥连接并上报，无法注册；请先让设备联网并发送 hello，再在“待注册”中注册`,
  notFound: '设备不存在或已注销，请刷新列表后重试',
  spaceNotFound: '所选空间不存在，请重新选择',
  linkDown: (reason: string) =>
    `设备通信服务未连接（${reason}），暂时无法向设备发送指令，请联系管理员检查 MQTT 配置`,
  offline: (name: string) => `设备“${name}”当前离线，指令未发送；请检查设备的电源和网络后重试`,
  timeout: (name: string) => `设备“${name}”在 5 秒内没有响应，指令可能未执行，请稍后重试`,
  refused: (name: string, error: string) => `设备“${name}”拒绝了指令：${error || '未说明原因'}`,
  durationInvalid: `开门时长必须是 ${OPEN_DOOR_MIN_S}–${OPEN_DOOR_MAX_S} 秒的整数`,
  reasonTooLong: '操作原因最多 200 个字符，请删减后重试',
  /** 远程开门 to a device whose space is in 封锁 (lockdown): refused by the server. */
  lockedDown: (name: string, space: string, reason: string | null) =>
    `门“${name}”所在空间“${space}”已封锁（原因：${reason || '未说明'}），远程开门已停用；解除封锁后再试`,
  reasonRequired: '请填写操作原因，它会记入操作日志',
  /** 重启 to a v1 device, which has no such command: refused before anything is sent. */
  rebootUnsupported: (name: string) => `门“${name}”是 v1 设备，不支持远程重启；请到现场重启`,
  passwordInvalid: `管理员密码必须是 ${ADMIN_PASSWORD_MIN_DIGITS}–${ADMIN_PASSWORD_MAX_DIGITS} 位数字`,
  passwordsFull: `每台设备最多 ${MAX_ADMIN_PASSWORDS} 个管理员密码，请先删除不用的密码`,
  passwordTaken: '该设备已有相同的管理员密码，请换一个',
  passwordNotFound: '该管理员密码不存在或已删除，请刷新后重试',
  cardNoRequired: '请填写卡号',
  cardNoInvalid: '卡号只能包含字母和数字，长度 4–32',
  cardRangeInvalid: '卡的有效期结束时间必须晚于开始时间',
  cardRulesFull: `每台设备最多 ${MAX_CARD_RULES} 条卡规则，请先删除过期的规则`,
  cardRuleNotFound: '该卡规则不存在或已删除，请刷新后重试',
  /** A change saved and synced, or saved for a device that will get it when it is back online. */
  listSynced: (what: string) => `${what}已保存并同步到设备`,
  listPending: (what: string, why: string) =>
    `${what}已保存，但暂未同步到设备（${why}）；设备恢复连接后会自动同步`,
} as const;

const labels = {
  sn: '设备序列号',
  name: '设备名称',
  spaceId: '所属空间',
  durationS: '开门时长',
  reason: '操作原因',
  password: '管理员密码',
  pwdId: '密码编号',
  cardNo: '卡号',
  validFrom: '生效时间',
  validTo: '失效时间',
} as const;

/**
 * The fields' names by request, as a refusal of that request names them (and its form labels
 * them); a request not listed names its fields with the contract's common fieldLabels.
 */
export const deviceFieldLabels = {
  register: { sn: labels.sn, name: labels.name, spaceId: labels.spaceId },
  openDoor: { durationS: labels.durationS },
  command: { reason: labels.reason },
  lists: {
    reason: labels.reason,
    password: labels.password,
    pwdId: labels.pwdId,
    cardNo: labels.cardNo,
    validFrom: labels.validFrom,
    validTo: labels.validTo,
  },
} as const;
