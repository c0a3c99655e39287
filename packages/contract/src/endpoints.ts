/**
 * The envelope, the API prefixes and the shell and auth endpoints (conventions in docs/api.md):
 * plain constants and types, free of zod so the console can import them without the schema
 * library. The payload schemas are in api.ts.
 */

/** Every response but the token endpoint: `{code, msg, data}`; code 200 is success. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** `GET {res}/page` answers with this. */
export interface Page<T> {
  records: T[];
  total: number;
  current: number;
  size: number;
}
export const prefixes = {
  basic: '/api/basic/admin/v1',
  user: '/api/user/admin/v1',
  merchant: '/api/merchant/admin/v1',
  building: '/api/building/admin/v1',
  card: '/api/card/admin/v1',
  order: '/api/order/admin/v1',
  tripartite: '/api/tripartite/admin/v1',
  hardware: '/api/hardware/admin/v1',
} as const;

/** The console shell's calls (user info, profile, password, menu tree, audit log, health), and the auth endpoints. */
export const endpoints = {
  token: '/api/auth/oauth/token',
  logout: '/api/auth/oauth/logout',
  userInfo: `${prefixes.user}/sso-user/user-info`,
  /** PUT: the signed-in user's own nickname, email and avatar. */
  profileEdit: `${prefixes.user}/sso-user/profile`,
  userEditPassword: `${prefixes.user}/sso-user/edit-password`,
  menuUserTree: `${prefixes.user}/sso-menu/user-tree`,
  auditLogPage: `${prefixes.user}/audit-log/page`,
  /** GET: the staff who appear in the audit log, as `{value: id, label}` options (操作人 filter). */
  auditLogActors: `${prefixes.user}/audit-log/actors`,
  health: '/api/health',
  ready: '/api/ready',
} as const;

/** An item of the signed-in user's side-menu tree (`sso-menu/user-tree`), its children nested. */
export interface MenuItem {
  id: number;
  name: string;
  url: string;
  iconUrl: string | null;
  iconBrightUrl: string | null;
  children: MenuItem[];
}
