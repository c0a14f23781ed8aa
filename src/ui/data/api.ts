/**
 * The Kubernetes API from the page: same-origin `fetch` with the session cookie, JSON merge
 * patches, and errors as the server's Status `message` (what the user is shown).
 *
 * @module
 */
import { isJsonObject, type KubeObject } from './json.js';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export class ApiError extends Error {
  readonly code: number;

  constructor(message: string, code: number) {
    super(message);
    this.code = code;
    this.name = 'ApiError';
  }
}

/** The path of a resource (collection when `name` is undefined). */
export function resourcePath(
  group: string,
  version: string,
  resource: string,
  namespace: string | undefined,
  name?: string,
  subresource?: string,
): string {
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  const ns =
    namespace === undefined || namespace === ''
      ? ''
      : `/namespaces/${encodeURIComponent(namespace)}`;
  const n = name === undefined ? '' : `/${encodeURIComponent(name)}`;
  const sub = subresource === undefined ? '' : `/${subresource}`;
  return `${base}${ns}/${resource}${n}${sub}`;
}

/** The version part of an object's apiVersion (`apps/v1` → `v1`). */
export function versionOf(object: KubeObject | undefined, fallback: string): string {
  const av = object?.apiVersion;
  if (av === undefined) return fallback;
  const slash = av.lastIndexOf('/');
  return slash === -1 ? av : av.slice(slash + 1);
}

/** The message of an error response: the Status `message`, else the status line. */
export async function errorMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body: unknown = JSON.parse(text);
    if (isJsonObject(body) && typeof body.message === 'string' && body.message !== '')
      return body.message;
  } catch {
    // not JSON: fall through
  }
  return `${res.status} ${res.statusText || 'request failed'}${text !== '' && text.length < 200 ? `: ${text}` : ''}`;
}

export class Api {
  private readonly fetchFn: Fetch;

  constructor(fetchFn: Fetch) {
    this.fetchFn = fetchFn;
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    contentType = 'application/json',
  ): Promise<unknown> {
    const init: RequestInit = {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { Accept: 'application/json', 'Content-Type': contentType },
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await this.fetchFn(path, init);
    if (!res.ok) throw new ApiError(await errorMessage(res), res.status);
    if (res.status === 204) return undefined;
    const text = await res.text();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  }

  get(path: string): Promise<unknown> {
    return this.request('GET', path);
  }

  mergePatch(path: string, patch: unknown): Promise<unknown> {
    return this.request('PATCH', path, patch, 'application/merge-patch+json');
  }

  post(path: string, body: unknown): Promise<unknown> {
    return this.request('POST', path, body);
  }

  put(path: string, body: unknown): Promise<unknown> {
    return this.request('PUT', path, body);
  }

  delete(path: string): Promise<unknown> {
    return this.request('DELETE', path);
  }
}
