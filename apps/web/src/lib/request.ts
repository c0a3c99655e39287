/**
 * THE axios instance. It alone knows the envelope `{code, msg, data}`, the error
 * toasts, and the 401 / 424 handling; pages call the helpers at the bottom and never look at `code`.
 */
import axios, {
  AxiosError,
  AxiosHeaders,
  type AxiosRequestConfig,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';
import { message } from 'antd';
import { createElement, Fragment, type ReactNode } from 'react';
import {
  ADMIN_CLIENT_ID,
  ADMIN_CLIENT_SECRET,
  ERROR_TOAST_SECONDS,
  IDEMPOTENCY_KEY_HEADER,
  REQUEST_ID_HEADER,
  REQUEST_ID_PATTERN,
  REQUEST_TIMEOUT_MS,
  SUCCESS_CODE,
  endpoints,
  messages,
  withRequestId,
  type Envelope,
  type TokenResponse,
} from '@cowork/contract';
import { keepOpenForms } from './form-drafts.ts';
import {
  currentAddress,
  isLoginPath,
  loginAddress,
  navigateTo,
  rememberSignOutReason,
  reloadPage,
} from './navigation.ts';
import {
  accessTokenDue,
  endSession,
  getAccessToken,
  getRefreshToken,
  mergeUserInfo,
  setTokens,
} from './session.ts';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Marks the token-refresh call, whose failure must not start another refresh. */
    isRefresh?: boolean;
    /** A file download answering the whole response, whose headers name the file. */
    wholeResponse?: boolean;
    /** Sent again once because its token was replaced while it was on its way. */
    resentWithNewToken?: boolean;
    /**
     * A poll the console makes on its own (the alert bell): it neither renews the token ahead nor
     * meets a 424 with a refresh and reload, and shows no toast, so an idle console is not kept
     * signed in by it, and no page reloads under someone typing; the next call the user makes does that.
     */
    background?: boolean;
  }
}

/** A rejected call. `code` is the envelope code, or the HTTP status of a transport error. */
export class RequestError extends Error {
  readonly code: number | undefined;
  readonly status: number | undefined;
  /** The envelope's `data` of a refusal that explains itself (an import's bad rows). */
  readonly data: unknown;
  /** The server's id of the request (X-Request-Id), which its log lines carry. */
  readonly requestId: string | undefined;
  constructor(text: string, code?: number, status?: number, data?: unknown, requestId?: string) {
    super(text);
    this.name = 'RequestError';
    this.code = code;
    this.status = status;
    this.data = data;
    this.requestId = requestId;
  }
}

/** Whether a failed call met an expired token (424): callers keep their loading state on then. */
export const isTokenExpired = (error: unknown): boolean =>
  error instanceof RequestError && error.code === 424;

type Toast = (text: string, seconds: number, requestId?: string) => void;
/**
 * What an error toast shows: the sentence, then the request's id (请求编号) in an element of its own,
 * so the sentence stays one piece of text a user (or a test) reads whole.
 */
export const toastContent = (text: string, requestId?: string): ReactNode =>
  requestId
    ? createElement(
        Fragment,
        null,
        createElement('span', null, text),
        createElement('span', { className: 'request-id' }, withRequestId('', requestId)),
      )
    : text;
// The login page's toasts: antd's static message (its theme is the default one the console uses).
let toast: Toast = (text, seconds, requestId) => {
  void message.error(toastContent(text, requestId), seconds);
};
/**
 * Routes the toasts elsewhere: the layout's antd App while it is mounted (so they stack with the
 * screens' own messages), or a test. Answers the function that gives them back to the one before.
 */
export function setToast(next: Toast): () => void {
  const before = toast;
  toast = next;
  return () => {
    if (toast === next) toast = before;
  };
}
/** An error toast; with the request's id (请求编号) when the server answered, for the user to quote. */
const toastError = (text: string, requestId?: string) =>
  requestId ? toast(text, ERROR_TOAST_SECONDS, requestId) : toast(text, ERROR_TOAST_SECONDS);

/** The id the server gave the request (X-Request-Id), when it answered with one. */
function requestIdOf(response: AxiosResponse | undefined): string | undefined {
  const id: unknown = response?.headers?.[REQUEST_ID_HEADER.toLowerCase()];
  return typeof id === 'string' && REQUEST_ID_PATTERN.test(id) ? id : undefined;
}

/**
 * For a confirm button (Popconfirm's onConfirm): it spins until the call ends and then closes; a
 * failure was already shown as a toast, so it resolves instead of leaving an uncaught rejection.
 */
export const settled = (call: Promise<unknown>): Promise<void> =>
  call.then(
    () => undefined,
    () => undefined,
  );

export const request = axios.create({ baseURL: '', timeout: REQUEST_TIMEOUT_MS });

const isTokenUrl = (url: string | undefined) => (url ?? '').split('?')[0] === endpoints.token;

/**
 * Each create (a JSON POST) carries an Idempotency-Key. The same request sent again before one of
 * them succeeded — a double click that got through, a retry after a lost answer, the replay after a
 * 424 renewal — carries the same key, so the server answers the first result instead of writing
 * twice. After a success the next identical create is a new one, with a new key.
 */
const submissionKeys = new Map<string, string>();
const SUBMISSIONS_KEPT = 50;
const submissionOf = (config: InternalAxiosRequestConfig) =>
  `${config.url}\n${typeof config.data === 'string' ? config.data : JSON.stringify(config.data ?? null)}`;

/** 32 hex digits from the browser's random source (randomUUID needs https; this works on http). */
function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function keyCreate(config: InternalAxiosRequestConfig) {
  if (config.method !== 'post' || isTokenUrl(config.url) || config.data instanceof FormData) return;
  if (config.headers.has(IDEMPOTENCY_KEY_HEADER)) return;
  const submission = submissionOf(config);
  const key = submissionKeys.get(submission) ?? newKey();
  submissionKeys.delete(submission);
  submissionKeys.set(submission, key);
  if (submissionKeys.size > SUBMISSIONS_KEPT) submissionKeys.delete(submissionKeys.keys().next().value!);
  config.headers.set(IDEMPOTENCY_KEY_HEADER, key);
}

/**
 * Renewal ahead of expiry: once the access token has used most of its life (session.ts records
 * when), the next call first renews it, silently and without a reload, so a form filled slowly is
 * saved rather than met by a 424 and a reload. Calls made together share one renewal; a renewal that
 * fails leaves the call to the 424/401 handling below.
 */
let renewing: Promise<void> | null = null;

/** Trades the refresh token for a new pair and stores it; rejects when that fails. */
async function renewTokens(refreshToken: string): Promise<void> {
  const answer = await request.post<TokenResponse, TokenResponse>(endpoints.token, null, {
    params: {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: ADMIN_CLIENT_ID,
      client_secret: ADMIN_CLIENT_SECRET,
    },
    isRefresh: true,
  });
  if (!answer?.access_token || !answer.refresh_token) throw new Error('no token in the answer');
  setTokens(answer.access_token, answer.refresh_token, undefined, answer.expires_in);
  mergeUserInfo(answer.user_info);
}

async function renewAhead(): Promise<void> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) return;
  // On failure the call goes on with the token it has; a 424 or 401 is handled as before.
  await renewTokens(refreshToken).catch(() => undefined);
}

// A request without a token sends an empty Authorization header; with one, the bearer token.
request.interceptors.request.use(async (config) => {
  if (!isTokenUrl(config.url) && !config.isRefresh && !config.background && accessTokenDue()) {
    renewing ??= renewAhead().finally(() => (renewing = null));
    await renewing;
  }
  const token = getAccessToken();
  config.headers.set('Authorization', token ? `Bearer ${token}` : '');
  keyCreate(config);
  return config;
});

request.interceptors.response.use(onResponse, envelopeOfBlob);

function onResponse(response: AxiosResponse) {
  const body: unknown = response.data;
  if (isTokenUrl(response.config.url) && response.status === 200 && body) return body as never;
  // A file download (an import template) carries no envelope.
  if (response.config.responseType === 'blob' && response.status === 200 && body instanceof Blob)
    return (response.config.wholeResponse ? response : body) as never;
  const requestId = requestIdOf(response);
  if (response.status !== 200 || !body || typeof body !== 'object') {
    toastError(messages.serverError, requestId);
    return Promise.reject(
      new RequestError(messages.serverError, undefined, response.status, undefined, requestId),
    );
  }
  const envelope = body as Partial<Envelope>;
  if (envelope.code === SUCCESS_CODE) {
    if (response.config.method === 'post') submissionKeys.delete(submissionOf(response.config));
    return body as never;
  }
  const text = envelope.msg || messages.serverError;
  toastError(text, requestId);
  return Promise.reject(new RequestError(text, envelope.code, response.status, envelope.data, requestId));
}

/** A file download's error answer arrives as a Blob: read its envelope so its msg is shown. */
async function envelopeOfBlob(error: unknown) {
  const response = error instanceof AxiosError ? error.response : undefined;
  if (response?.data instanceof Blob && response.data.type.includes('json')) {
    try {
      response.data = JSON.parse(await response.data.text());
    } catch {
      // Not an envelope after all: the status speaks for it.
    }
  }
  return onError(error);
}

function onError(error: unknown) {
  if (!(error instanceof AxiosError)) {
    toastError(messages.serverError);
    return Promise.reject(new RequestError(messages.serverError));
  }
  const status = error.response?.status;
  const body = error.response?.data as Partial<Envelope> | undefined;
  const code = typeof body?.code === 'number' ? body.code : status;
  const config: InternalAxiosRequestConfig | undefined = error.config;
  const serverText = typeof body?.msg === 'string' && body.msg ? body.msg : undefined;

  // The refresh call's own failure is handled by refreshTokens(); a background poll's by nobody.
  if (config?.isRefresh || config?.background)
    return Promise.reject(new RequestError(serverText ?? error.message, code, status));

  if ((status === 401 || status === 424) && config && tokenReplacedSince(config)) {
    // A renewal (of this tab or another) replaced the token while this call was on its way, and the
    // server ended the old one: nothing was done, so the call goes again, once, with the new token.
    config.resentWithNewToken = true;
    return request(config);
  }

  if (status === 401) {
    keepOpenForms();
    const address = currentAddress();
    endSession();
    if (!isLoginPath(window.location.pathname)) {
      rememberSignOutReason(serverText ?? messages.unauthorized);
      navigateTo(loginAddress(address));
    }
    return Promise.reject(new RequestError(serverText ?? messages.unauthorized, 401, status));
  }
  if (status === 424) {
    void refreshTokens();
    return Promise.reject(new RequestError(serverText ?? messages.tokenExpired, 424, status));
  }
  const text = serverText ?? transportText(error);
  const requestId = requestIdOf(error.response);
  toastError(text, requestId);
  return Promise.reject(new RequestError(text, code, status, body?.data, requestId));
}

/** Whether the session now holds another access token than the one `config` was sent with. */
function tokenReplacedSince(config: InternalAxiosRequestConfig): boolean {
  const token = getAccessToken();
  return !config.resentWithNewToken && !!token && config.headers.get('Authorization') !== `Bearer ${token}`;
}

/**
 * The text of a failure the server did not explain: a status without msg is a server error; a
 * timeout or a lost connection is named in Chinese; anything else keeps the error's own message.
 */
function transportText(error: AxiosError): string {
  if (error.response) return messages.serverError;
  if (error.code === AxiosError.ECONNABORTED || error.code === AxiosError.ETIMEDOUT)
    return messages.requestTimeout;
  if (error.code === AxiosError.ERR_NETWORK) return messages.networkError;
  return error.message || messages.serverError;
}

/**
 * The one-time token refresh of a 424. Parallel calls that meet 424 together share
 * one refresh; after success the page reloads, so the flag is never cleared on that path.
 */
let refreshing: Promise<void> | null = null;

export function refreshTokens(): Promise<void> {
  refreshing ??= runRefresh();
  return refreshing;
}

async function runRefresh(): Promise<void> {
  const refreshToken = getRefreshToken();
  if (!refreshToken) {
    signOutAfterFailedRefresh();
    return;
  }
  try {
    await renewTokens(refreshToken);
    keepOpenForms();
    reloadPage();
  } catch {
    signOutAfterFailedRefresh();
  }
}

function signOutAfterFailedRefresh() {
  keepOpenForms();
  const address = currentAddress();
  endSession();
  refreshing = null;
  if (!isLoginPath(window.location.pathname)) {
    rememberSignOutReason(messages.sessionExpired);
    navigateTo(loginAddress(address));
  }
}

/** For unit tests: forget a refresh that ended with a (simulated) reload. */
export function resetRefreshState(): void {
  refreshing = null;
}

// ---- The call styles pages use; each resolves with the envelope's `data`. ----

type Params = Record<string, unknown>;
type Config = Omit<AxiosRequestConfig, 'url' | 'method' | 'data' | 'params'>;

async function call<T>(config: AxiosRequestConfig): Promise<T> {
  const body = await request.request<Envelope<T>, Envelope<T>>(config);
  return body.data;
}

const withId = (url: string, id: string | number) => `${url}/${encodeURIComponent(String(id))}`;

/** Sets the Content-Type of one call, e.g. `withContentType('multipart/form-data')`. */
export const withContentType = (contentType: string, config: Config = {}): Config => ({
  ...config,
  headers: AxiosHeaders.from({
    ...(config.headers as Record<string, string> | undefined),
    'Content-Type': contentType,
  }),
});

export const api = {
  /** POST with a JSON body. */
  post: <T>(url: string, body?: unknown, config?: Config) =>
    call<T>({ ...config, method: 'post', url, data: body }),
  /** GET with query params. */
  get: <T>(url: string, params?: Params, config?: Config) =>
    call<T>({ ...config, method: 'get', url, params }),
  /** GET `{url}/{id}`. */
  getById: <T>(url: string, id: string | number, config?: Config) =>
    call<T>({ ...config, method: 'get', url: withId(url, id) }),
  /** DELETE with a JSON body, e.g. `{ids}`. */
  delete: <T>(url: string, body?: unknown, config?: Config) =>
    call<T>({ ...config, method: 'delete', url, data: body }),
  /** DELETE `{url}/{id}`. */
  deleteById: <T>(url: string, id: string | number, config?: Config) =>
    call<T>({ ...config, method: 'delete', url: withId(url, id) }),
  /** PUT with a JSON body. */
  put: <T>(url: string, body?: unknown, config?: Config) =>
    call<T>({ ...config, method: 'put', url, data: body }),
  /** GET a file (no envelope), e.g. an import template. */
  download: (url: string, params?: Params) =>
    request.request<Blob, Blob>({ method: 'get', url, params, responseType: 'blob' }),
  /** GET a file with the name the server gives it (Content-Disposition), e.g. an export. */
  downloadFile: async (url: string, params?: Params) => {
    const response = await request.request<AxiosResponse<Blob>, AxiosResponse<Blob>>({
      method: 'get',
      url,
      params,
      responseType: 'blob',
      wholeResponse: true,
    });
    return { blob: response.data, fileName: fileNameOf(response.headers['content-disposition']) };
  },
};

/** The file name of a Content-Disposition header: the RFC 5987 `filename*` (UTF-8), else `filename`. */
export function fileNameOf(disposition: unknown): string | undefined {
  if (typeof disposition !== 'string') return undefined;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  return /filename="?([^";]+)"?/i.exec(disposition)?.[1];
}

/** Hands a downloaded file to the browser under `name`. */
export function saveFile(data: Blob, name: string) {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Signs in with the password grant (form body); the token endpoint answers without envelope. */
export function requestPasswordToken(username: string, password: string): Promise<TokenResponse> {
  const form = new URLSearchParams({
    grant_type: 'password',
    username,
    password,
    client_id: ADMIN_CLIENT_ID,
    client_secret: ADMIN_CLIENT_SECRET,
  });
  return request.post<TokenResponse, TokenResponse>(
    endpoints.token,
    form,
    withContentType('application/x-www-form-urlencoded'),
  );
}
