/** Business constants shared by web and server (the API conventions: docs/api.md). */

/** Body code of a successful response (the envelope's `code`). */
export const SUCCESS_CODE = 200;
/** Axios timeout of every console request, in milliseconds. */
export const REQUEST_TIMEOUT_MS = 500_000;
/** How long an error toast stays, in seconds. */
export const ERROR_TOAST_SECONDS = 3;
/** Default expiry of the token cookies, in days. */
export const COOKIE_EXPIRES_DAYS = 1;
/** Cookie names holding the tokens. */
export const ACCESS_TOKEN_COOKIE = 'access_token';
export const REFRESH_TOKEN_COOKIE = 'refresh_token';
/**
 * Local-storage key of when the access token should be renewed (Unix ms): shared by the console's
 * tabs, so whichever tab is in use renews it ahead of its expiry.
 */
export const ACCESS_TOKEN_RENEW_AT_KEY = 'access_token_renew_at';
/** The share of an access token's life after which the console renews it. */
export const ACCESS_TOKEN_RENEW_SHARE = 0.8;
/** Local-storage key of the cached user info (a JSON object). */
export const USER_INFO_KEY = 'user_info';
/** Local-storage key and value that remember the dismissed "use Chrome" notice. */
export const BROWSER_TIP_KEY = 'browser_tip';
export const BROWSER_TIP_DISMISSED = '2';
/** Width of the side menu when open; 0 when closed. */
export const SIDER_WIDTH = 250;
/** Where menu icons are served: `${MENU_ICON_BASE}/{key}.svg` and `{key}-bright.svg`. */
export const MENU_ICON_BASE = '/file/images/admin';
/** The first-party client that may use the token endpoint (configurable on the server). */
export const ADMIN_CLIENT_ID = 'admin';
export const ADMIN_CLIENT_SECRET = 'admin';
/** Token lifetimes in seconds (defaults of ACCESS_TOKEN_TTL and REFRESH_TOKEN_TTL). */
export const ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60;
export const REFRESH_TOKEN_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Password length bounds for new passwords. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 64;
/** Identity-card number length. */
export const ID_CARD_LENGTH = 18;
/** Mainland mobile number: 11 digits, starting with 1, second digit 3 to 9. */
export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
/** An e-mail address: word characters (joined by `-`, `+` or `.`), @, then a domain with at least one dot. */
export const EMAIL_PATTERN = /^\w+([-+.]\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*$/;
/** Largest page a list endpoint returns. */
export const MAX_PAGE_SIZE = 100;
/**
 * Sign-in throttling (docs/security.md): failures allowed per account and per address inside the
 * window from addresses the account has not signed in from, then 429 until the window ends.
 */
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 20;
export const LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60;
/** Failures of one account from one address before each further attempt must wait (429 until then). */
export const LOGIN_PAIR_FREE_FAILURES = 5;
/** The first wait; it doubles with every further failure, up to LOGIN_BACKOFF_MAX_SECONDS. */
export const LOGIN_BACKOFF_BASE_SECONDS = 30;
export const LOGIN_BACKOFF_MAX_SECONDS = 15 * 60;
/** A pair's failures are forgotten after a day without attempts (or at its next success). */
export const LOGIN_PAIR_RESET_SECONDS = 24 * 60 * 60;
/** An address the right password signed in from stays known to that account this long. */
export const LOGIN_KNOWN_ADDRESS_DAYS = 90;
/** A spent refresh token shown again this soon gets the same new pair (two tabs refreshing at once). */
export const REFRESH_REUSE_GRACE_SECONDS = 10;
/** Permission code that grants everything (held by the 超级管理员 role). */
export const ALL_PERMISSIONS = '*';
/**
 * Whether codes granted open what requires `required` (one code, or any one of several): the one
 * check the server enforces and the console uses to show or hide what a staff member may do.
 */
export const grants = (granted: readonly string[], required: string | readonly string[]) =>
  granted.includes(ALL_PERMISSIONS) ||
  (typeof required === 'string' ? [required] : required).some((code) => granted.includes(code));
/**
 * Header a create (POST) may carry so a repeat of it (a double click, a retry) answers the first
 * result without writing again, for 24 hours: a fresh random value per submission, e.g. a UUID.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Its value: 8 to 128 letters, digits, `-`, `_`, `.` or `:`. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,128}$/;
/**
 * Header every answer carries with its request's id, which the server's log lines carry too: the
 * console shows it in its error messages (请求编号) so a user can quote it. A proxy the server trusts
 * (TRUST_PROXY) may send its own id in it, taken when it is a short plain token of this shape.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id';
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
