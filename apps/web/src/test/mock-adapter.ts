/**
 * A stand-in for the network in unit tests: axios accepts a custom `adapter`, so the real instance,
 * its interceptors and its helpers run unchanged while the replies come from the test. (A unit
 * test cannot reach the API server; the end-to-end tests in /e2e exercise the real one.)
 */
import { AxiosError, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

export interface Reply {
  status: number;
  data?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (config: InternalAxiosRequestConfig) => Reply | Promise<Reply>;

export function mockAdapter(handler: Handler): AxiosAdapter & { calls: InternalAxiosRequestConfig[] } {
  const calls: InternalAxiosRequestConfig[] = [];
  const adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    calls.push(config);
    const reply = await handler(config);
    const response: AxiosResponse = {
      data: reply.data,
      status: reply.status,
      statusText: String(reply.status),
      headers: reply.headers ?? {},
      config,
      request: {},
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    throw new AxiosError(
      `Request failed with status code ${reply.status}`,
      reply.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST,
      config,
      {},
      response,
    );
  };
  return Object.assign(adapter, { calls });
}

/** The query string of a call, whether given as `params` or in the url. */
export function paramsOf(config: InternalAxiosRequestConfig): Record<string, string> {
  const fromUrl = Object.fromEntries(new URL(config.url ?? '', 'http://x').searchParams);
  const params = Object.fromEntries(Object.entries(config.params ?? {}).map(([k, v]) => [k, String(v)]));
  return { ...fromUrl, ...params };
}

/** Sets the address of the page shown, as the browser would. */
export function visit(address: string): void {
  window.history.replaceState(null, '', address);
}
