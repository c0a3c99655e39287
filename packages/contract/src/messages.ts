/** Every Chinese sentence the user reads that web and server share. Meaning in English beside each. */
export const messages = {
  /** server error, please contact the administrator */
  serverError: '服务器错误，请联系管理员',
  /** you have no permission for this operation */
  noPermission: '您没有权限进行此操作',
  /** please sign in again */
  unauthorized: '登录已失效，请重新登录',
  /** the access token has expired */
  tokenExpired: '登录凭证已过期，正在为您续期',
  /** wrong user name or password (same for unknown users) */
  badCredentials: '用户名或密码错误，请检查后重新输入',
  /** too many failed attempts */
  tooManyAttempts: '登录失败次数过多，请 15 分钟后再试',
  /** too many failed attempts, with the wait in whole minutes */
  tooManyAttemptsWait: '密码错误次数过多，请 {minutes} 分钟后再试',
  /** the current password, asked when changing one's own, is missing */
  oldPasswordRequired: '请输入原密码',
  /** the current password is wrong */
  oldPasswordWrong: '原密码不正确，请重新输入',
  tooManyRequests: '请求过于频繁，请稍后再试',
  /** the request got no answer: network down or server unreachable (shown by the web console) */
  networkError: '网络连接失败，请检查网络后重试',
  /** the request took too long (shown by the web console) */
  requestTimeout: '请求超时，请稍后重试',
  /** the refresh token is invalid */
  refreshInvalid: '登录已失效，请重新登录',
  /** the login page, after the session could not be renewed (the refresh token expired too) */
  sessionExpired: '登录已过期，请重新登录；未保存的表单会在登录后恢复',
  /** a screen the user's menu does not grant, opened by its address; {page} is its title */
  routeForbidden: '您没有「{page}」的访问权限，已返回首页；如需使用请联系管理员分配权限',
  /** this client may not sign in here */
  badClient: '客户端认证失败，请使用后台管理端登录',
  /** unsupported grant type */
  badGrant: '不支持的授权方式，请使用密码或刷新令牌登录',
  /** account disabled */
  accountDisabled: '该账号已被停用，请联系管理员',
  notFound: '请求的资源不存在，请检查地址后重试',
  routeNotFound: '接口不存在，请检查请求地址',
  badUrl: '请求地址中有无法识别的字符，请检查链接后重试',
  conflict: '数据已被修改或已存在，请刷新后重试',
  ok: '操作成功',
  // Form validation: the sentences every form shows for a password, phone, e-mail, ID card, date range or upload.
  passwordRequired: '请输入密码',
  passwordTooShort: '密码至少需要 8 个字符，请重新输入',
  passwordTooLong: '密码最多 64 个字符，请重新输入',
  passwordGuessable: '密码太容易被猜到，请混用字母、数字和符号中的至少两种，且不要包含 password',
  usernamePlaceholder: '请输入用户名',
  usernameRequired: '请输入用户名!',
  phoneRequired: '请填写手机号',
  phoneInvalid: '请填写正确的手机号',
  emailRequired: '请填写邮箱',
  emailInvalid: '请填写正确的邮箱',
  idCardRequired: '请填写身份证号',
  idCardInvalid: '请填写正确的身份证号',
  dateRangeRequired: '请选择时间段',
  uploadBadType: '文件类型不支持，请上传以下格式：',
  uploadTooLarge: '文件过大，请上传不超过 {max} KB 的文件',
  /** the Chrome notice */
  browserTip: '为获得最佳体验，建议您使用谷歌浏览器（Chrome）访问本系统',
  passwordChanged: '密码修改成功，请使用新密码重新登录',
  /** the request could not be read (bad JSON, wrong shape) */
  badRequest: '请求参数不正确，请检查后重试',
  /** the request body is too large */
  payloadTooLarge: '请求内容过大，请减小后重试',
  /** the request body's content type is not accepted */
  unsupportedMediaType: '不支持的请求内容格式',
  /** a time filter that is not a date or ISO 8601 time */
  timeInvalid: '时间格式不正确，请使用 YYYY-MM-DD 或 ISO 8601 格式',
  /** the server cannot serve requests right now (database unreachable) */
  serviceUnavailable: '服务暂时不可用，请稍后再试',
  /** the database cannot be reached (an outage): answered 503 */
  databaseUnavailable: '数据库暂时无法连接，请稍后重试',
  /** the database cancelled a statement that ran too long: answered 503 */
  databaseTimeout: '数据库响应超时，请稍后重试',
  /** a malformed Idempotency-Key header */
  idempotencyKeyInvalid:
    '请求头 Idempotency-Key 格式不正确：须为 8 到 128 位字母、数字或 - _ . :，请刷新页面后重新提交',
  /** the same Idempotency-Key came with a different request */
  idempotencyKeyReused: '该 Idempotency-Key 已用于另一个不同的请求，请刷新页面后重新提交',
  /** a text holds NUL or a lone UTF-16 surrogate, which no database column can keep */
  textUnsavable: '含有无法保存的字符（空字符 NUL 或不成对的 Unicode 代理项），请删除这些字符后重试',
  /** the database refused a value the schemas let through (out of range, unreadable) */
  valueOutOfRange: '请求中有超出可保存范围的值（数字过大或文字过长），请检查后重试',
  /** The label of a refused value whose field is not known. */
  someField: '提交的值',
  /** After a field's label: the database refused the value (a CHECK constraint). */
  valueNotAllowed: '取值不符合要求，未保存任何内容，请检查后重试',
  /** the first of two identical requests is still running after the wait */
  requestInProgress: '相同的请求正在处理中，请稍后刷新页面查看结果',
} as const;

/** The 403 of a grant beyond one's own permissions (role, menu code), naming up to five codes. */
export const grantBeyondOwnMessage = (codes: readonly string[]) =>
  `您不能授予自己没有的权限：${codes.slice(0, 5).join('、')}${codes.length > 5 ? ' 等' : ''}；请让拥有这些权限的管理员操作`;

/** An error message with the id of the request it answered, for the user to quote to support. */
export const withRequestId = (text: string, requestId: string) => `${text}（请求编号 ${requestId}）`;

/** `{field}` is not valid: names the field in a 400's msg. */
export const fieldInvalid = (label: string, why: string) => `${label}：${why}`;

/** How many characters of a value a message quotes at most. */
const QUOTED_MAX_CHARS = 50;

/**
 * A value the user typed, as a message quotes it: in “”, cut to QUOTED_MAX_CHARS characters with an
 * ellipsis, so a pasted essay cannot make the answer (or an import's error report) huge.
 */
export function quoted(value: unknown): string {
  const text = String(value);
  // Counted in characters, not UTF-16 units, so an emoji is never cut in half.
  const chars = Array.from(text.slice(0, QUOTED_MAX_CHARS * 2 + 2));
  return chars.length > QUOTED_MAX_CHARS ? `“${chars.slice(0, QUOTED_MAX_CHARS).join('')}…”` : `“${text}”`;
}

/**
 * Chinese labels of request fields, used to name the field in a 400's msg
 * (`fieldInvalid(fieldLabels.newPassword, …)`). Add a resource's fields here as it is built.
 */
export const fieldLabels: Record<string, string> = {
  username: '用户名',
  password: '密码',
  newPassword: '新密码',
  oldPassword: '原密码',
  ssoUserId: '用户编号',
  nickname: '昵称',
  email: '邮箱',
  phone: '手机号',
  avatar: '头像',
  idCardNo: '身份证号',
  current: '页码',
  size: '每页条数',
  actorId: '操作人',
  companyId: '企业',
  resource: '资源',
  action: '操作',
  from: '开始时间',
  to: '结束时间',
  id: '编号',
  ids: '编号列表',
  name: '名称',
  code: '编码',
  sort: '排序',
  published: '发布状态',
  status: '状态',
  grant_type: '授权方式',
  refresh_token: '刷新令牌',
  client_id: '客户端编号',
  client_secret: '客户端密钥',
};
