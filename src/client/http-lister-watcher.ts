/**
 * {@link ListerWatcher} over HTTP(S) for one collection path, e.g. `/api/v1/pods` (all
 * namespaces) or `/apis/apps/v1/namespaces/default/deployments`, with node:http/node:https
 * and no other dependency.
 *
 * - list: `GET path?limit=&continue=&resourceVersion=&labelSelector=&fieldSelector=`.
 * - watch: `GET path?watch=true&resourceVersion=&allowWatchBookmarks=&timeoutSeconds=`; the
 *   chunked body is newline-delimited JSON (docs/design/wire-protocol.md §4.2), split on `\n` across chunk
 *   boundaries. An ERROR event rejects with its Status (410 → {@link ExpiredError}).
 * - Non-2xx answers reject with {@link StatusCodeError} carrying the code and Status body.
 *
 * Selectors given to the constructor apply to every list and watch (so list and watch always
 * agree); selectors passed to one `list` call override them.
 *
 * @module
 */
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { parseJson } from '../api/int64-json.js';
import { isKubeObject } from '../api/is-kube-object.js';
import { isJsonObject, type KubeObject } from '../api/object.js';
import { type Clock, holdClock, realClock } from '../util/clock.js';
import {
  type ListerWatcher,
  type ListOptions,
  type ListResult,
  parseStatusBody,
  statusCodeError,
  type WatchEvent,
  type WatchOptions,
  watchEventError,
} from './lister-watcher.js';

/** Where and how to connect. */
export interface ConnectionOptions {
  /** `https://host:port` or `http://host:port`; a path prefix is kept. */
  readonly server: string;
  /** Sent as `Authorization: Bearer …`. */
  readonly token?: string;
  /** PEM of the CA that signed the serving certificate (https only). */
  readonly ca?: string | Buffer;
  /** Accept any serving certificate (kubeconfig `insecure-skip-tls-verify`). */
  readonly insecureSkipTlsVerify?: boolean;
  /**
   * Connect to this Unix domain socket instead of the URL's host and port, with plain HTTP
   * (the URL's scheme must then be `http:`): `fleetyard up`'s own controller thread, which
   * reaches the API server in its process without TLS (ADR 0020). The bearer token is still
   * sent and checked.
   */
  readonly socketPath?: string;
}

/** Whether `options` name a socket that goes with an `https:` URL (refused: no TLS there). */
export function checkSocketScheme(options: ConnectionOptions, url: URL): void {
  if (options.socketPath !== undefined && url.protocol !== 'http:') {
    throw new TypeError(`a Unix socket connection speaks plain HTTP: ${url.protocol} given`);
  }
}

export interface HttpListerWatcherOptions extends ConnectionOptions {
  /** The collection path, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Time limit of one list request in ms (not of watches). @default 60_000 */
  readonly listTimeoutMs?: number;
  /** Times list requests. @default realClock */
  readonly clock?: Clock;
  /**
   * The virtual clock of `fleetyard up`: held during a list, and told of every watch event
   * handled (and, when a stream ends, of its events retracted), so it knows none is in flight.
   */
  readonly activity?: Pick<Clock, 'hold' | 'watchEvents'>;
}

/** The longest line a watch may send before it is treated as broken (a 16 MiB object). */
const MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Lists and watches plain objects (`KubeObject`): what the path serves is the caller's to narrow
 * (`asKind`), since the same source serves any resource.
 */
export class HttpListerWatcher implements ListerWatcher<KubeObject> {
  readonly #options: HttpListerWatcherOptions;
  readonly #base: URL;

  constructor(options: HttpListerWatcherOptions) {
    this.#options = options;
    this.#base = new URL(options.server);
    if (this.#base.protocol !== 'https:' && this.#base.protocol !== 'http:') {
      throw new TypeError(`unsupported server URL scheme: ${this.#base.protocol}`);
    }
    if (!options.path.startsWith('/'))
      throw new TypeError(`path must start with /: ${options.path}`);
    checkSocketScheme(options, this.#base);
  }

  async list(options: ListOptions, signal?: AbortSignal): Promise<ListResult<KubeObject>> {
    const query = this.#selectors(options);
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    // Upstream rejects a continue token together with a resourceVersion.
    if (options.continue) query.set('continue', options.continue);
    else if (options.resourceVersion) query.set('resourceVersion', options.resourceVersion);
    const timeout = new AbortController();
    const clock = this.#options.clock ?? realClock;
    const cancel = clock.setTimer(this.#options.listTimeoutMs ?? 60_000, () =>
      timeout.abort(new Error(`list ${this.#options.path} timed out`)),
    );
    const onAbort = (): void => timeout.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let res: IncomingMessage;
    let text: string;
    const release = holdClock(this.#options.activity);
    try {
      res = await this.#get(query, timeout.signal);
      text = await readBody(res);
    } finally {
      release();
      cancel();
      signal?.removeEventListener('abort', onAbort);
    }
    if (!isSuccess(res)) throw statusCodeError(res.statusCode ?? 0, parseStatusBody(text));
    const body = parseJson(text);
    const items: unknown = isJsonObject(body) ? (body.items ?? []) : undefined;
    if (!Array.isArray(items) || !items.every(isKubeObject)) {
      throw new Error(`list ${this.#options.path}: the response is not a list`);
    }
    const meta = isJsonObject(body) && isJsonObject(body.metadata) ? body.metadata : {};
    const cont = meta.continue;
    return {
      items,
      resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '',
      ...(typeof cont === 'string' && cont !== '' ? { continue: cont } : {}),
    };
  }

  async watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent<KubeObject>) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const query = this.#selectors({});
    query.set('watch', 'true');
    if (options.resourceVersion) query.set('resourceVersion', options.resourceVersion);
    if (options.allowWatchBookmarks) query.set('allowWatchBookmarks', 'true');
    if (options.timeoutSeconds !== undefined) {
      query.set('timeoutSeconds', String(options.timeoutSeconds));
    }
    if (signal.aborted) return;
    const inner = new AbortController();
    const onAbort = (): void => inner.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const res = await this.#get(query, inner.signal);
      if (!isSuccess(res)) {
        throw statusCodeError(res.statusCode ?? 0, parseStatusBody(await readBody(res)));
      }
      options.onConnected?.();
      const activity = this.#options.activity;
      if (activity?.watchEvents === undefined) {
        await readEvents(res, onEvent);
      } else {
        let handled = 0;
        try {
          await readEvents(res, (event) => {
            onEvent(event);
            handled++;
            activity.watchEvents?.(1);
          });
        } finally {
          activity.watchEvents(-handled);
        }
      }
    } catch (err) {
      // A stop requested by the caller is a normal end, not a failure.
      if (signal.aborted) return;
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
      inner.abort();
    }
  }

  #selectors(options: ListOptions): URLSearchParams {
    const query = new URLSearchParams();
    const label = options.labelSelector ?? this.#options.labelSelector;
    const field = options.fieldSelector ?? this.#options.fieldSelector;
    if (label) query.set('labelSelector', label);
    if (field) query.set('fieldSelector', field);
    return query;
  }

  /** Sends the GET; resolves with the response once its headers arrived. */
  #get(query: URLSearchParams, signal: AbortSignal): Promise<IncomingMessage> {
    const { token, ca, insecureSkipTlsVerify, socketPath } = this.#options;
    const url = new URL(this.#base);
    url.pathname = `${url.pathname.replace(/\/$/, '')}${this.#options.path}`;
    url.search = query.toString();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const https = url.protocol === 'https:';
    const options: RequestOptions & { ca?: string | Buffer; rejectUnauthorized?: boolean } = {
      method: 'GET',
      headers,
      signal,
      ...(socketPath !== undefined ? { socketPath } : {}),
      ...(https && ca !== undefined ? { ca } : {}),
      ...(https && insecureSkipTlsVerify ? { rejectUnauthorized: false } : {}),
    };
    return new Promise((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(url, options, resolve);
      req.on('error', reject);
      req.end();
    });
  }
}

function isSuccess(res: IncomingMessage): boolean {
  const code = res.statusCode ?? 0;
  return code >= 200 && code < 300;
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', reject);
  });
}

/**
 * Feeds each complete line of the stream to `onEvent`; resolves at the end of the stream,
 * rejects on an ERROR event, a malformed line, a throwing `onEvent` or a broken connection.
 */
function readEvents(
  res: IncomingMessage,
  onEvent: (event: WatchEvent<KubeObject>) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let failed = false;
    const fail = (err: unknown): void => {
      failed = true;
      res.destroy();
      reject(err);
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      if (failed) return;
      buffered += chunk;
      let nl = buffered.indexOf('\n');
      while (nl >= 0 && !failed) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        if (line.trim() !== '') deliverLine(line, onEvent, fail);
        nl = buffered.indexOf('\n');
      }
      if (buffered.length > MAX_LINE_BYTES) fail(new Error('watch event line too long'));
    });
    res.on('end', () => {
      if (failed) return;
      if (buffered.trim() !== '') deliverLine(buffered, onEvent, fail);
      if (!failed) resolve();
    });
    // 'error' or 'close' without 'end': the connection broke mid-stream.
    res.on('error', (err) => {
      if (!failed) fail(err);
    });
    res.on('close', () => {
      if (!failed && !res.complete) fail(new Error('watch stream closed before its end'));
    });
  });
}

function deliverLine(
  line: string,
  onEvent: (event: WatchEvent<KubeObject>) => void,
  fail: (err: unknown) => void,
): void {
  try {
    const event = parseJson(line);
    const { type, object } = isJsonObject(event) ? event : {};
    if (type === 'ERROR') {
      fail(watchEventError(object));
      return;
    }
    if (!isEventType(type) || !isKubeObject(object)) {
      fail(new Error(`unexpected watch event: ${line.slice(0, 200)}`));
      return;
    }
    onEvent({ type, object });
  } catch (err) {
    fail(err);
  }
}

function isEventType(type: unknown): type is WatchEvent['type'] {
  return type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED' || type === 'BOOKMARK';
}
