/**
 * The write side of the client: a small REST client for controllers (client-go's typed
 * clients reduced to one dynamic class). JSON only, bearer token only, node:http/node:https
 * with one keep-alive agent per client and no other dependency.
 *
 * - Paths come from {@link resourcePath}; every answer is the parsed JSON body.
 * - Writes carry `fieldManager` (the call's, else the client's) and `dryRun=All` as query
 *   parameters, as kubectl does; DELETE sends its DeleteOptions as a JSON body, as kubectl
 *   does (docs/design/wire-protocol.md §6), never as a query.
 * - A non-2xx answer rejects with {@link StatusCodeError} carrying the Status body (410 as
 *   {@link ExpiredError}); classify it with {@link isNotFound}, {@link isConflict},
 *   {@link isAlreadyExists}, {@link isTooManyRequests} (upstream apimachinery semantics).
 * - Each request is aborted after `timeoutMs` of the injected clock, rejecting with
 *   {@link RequestTimeoutError}; a caller's AbortSignal rejects with the signal's reason.
 *
 * @module
 */
import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createSecureContext } from 'node:tls';
import { urlToHttpOptions } from 'node:url';
import { isKubeObject } from '../api/is-kube-object.js';
import type { KubeObject } from '../api/object.js';
import { onAbort as onSignalAbort } from '../util/abort-fan-out.js';
import { type Clock, holdClock, realClock } from '../util/clock.js';
import { type Answer, errorOf, type KubeList, kubeList, readAnswer } from './answers.js';
import { RequestTimeoutError } from './api-errors.js';
import type {
  CallOptions,
  DeleteOptions,
  ListCallOptions,
  PatchOptions,
  PatchType,
  WriteOptions,
} from './call-options.js';
import { type ConnectionOptions, checkSocketScheme } from './http-lister-watcher.js';
import { loadKubeconfigConnection } from './kubeconfig-connection.js';
import { type CollectionRef, type ObjectRef, resourcePath } from './resource-path.js';

export {
  isAlreadyExists,
  isConflict,
  isForbidden,
  isNotFound,
  isTooManyRequests,
  RequestTimeoutError,
} from './api-errors.js';

import { parseJson, stringifyJson } from '../api/int64-json.js';

export interface ApiClientOptions extends ConnectionOptions {
  /** The default field manager of writes, e.g. `replicaset-controller`. */
  readonly fieldManager?: string;
  /** Time limit of one request, headers and body, in ms. @default 60_000 */
  readonly timeoutMs?: number;
  /** Times requests. @default realClock */
  readonly clock?: Clock;
  /**
   * Holds this clock while a request is in flight (the virtual clock of `fleetyard up`, whose
   * speed `max` waits for quiescence); `clock` times the requests on the wall.
   */
  readonly activity?: Pick<Clock, 'hold' | 'turns'>;
  /** The `User-Agent`; the server's fallback field manager is its first token. @default 'fleetyard-api-client' */
  readonly userAgent?: string;
  /**
   * Connections kept to the server; further requests wait for a free one. A controller that
   * fires 500 creates at once (slow start) would otherwise open 500 TLS connections and close
   * most again (the idle pool keeps 256), paying a handshake on both ends each time.
   * @default 32
   */
  readonly maxConnections?: number;
}

const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  // JSON is valid YAML: kubectl and client-node send the manifest as JSON too.
  apply: 'application/apply-patch+yaml',
};

interface Payload {
  readonly text: string;
  readonly contentType: string;
}

export class ApiClient {
  readonly #options: ApiClientOptions;
  readonly #base: URL;
  /** The server URL's path without its trailing `/`: the prefix of every request path. */
  readonly #prefix: string;
  /** Protocol, host, port (and auth) of every request, from the server URL once. */
  readonly #endpoint: RequestOptions;
  readonly #agent: HttpAgent;
  readonly #https: boolean;

  constructor(options: ApiClientOptions) {
    this.#options = options;
    this.#base = new URL(options.server);
    const { protocol } = this.#base;
    if (protocol !== 'https:' && protocol !== 'http:') {
      throw new TypeError(`unsupported server URL scheme: ${protocol}`);
    }
    checkSocketScheme(options, this.#base);
    this.#https = protocol === 'https:';
    this.#prefix = this.#base.pathname.replace(/\/$/, '');
    // Only where to connect: the path of each request is set per request.
    const { protocol: scheme, hostname, port, auth } = urlToHttpOptions(this.#base);
    this.#endpoint = {
      protocol: scheme,
      hostname,
      ...(port !== undefined ? { port } : {}),
      ...(auth !== undefined ? { auth } : {}),
      ...(options.socketPath !== undefined ? { socketPath: options.socketPath } : {}),
    };
    // One bounded pool per client: controllers issue many small requests to one server.
    const pool = {
      keepAlive: true,
      maxSockets: options.maxConnections ?? 32,
      maxFreeSockets: options.maxConnections ?? 32,
    };
    this.#agent = this.#https
      ? new HttpsAgent({
          ...pool,
          // One TLS context for every connection (passing `ca` builds one per connection).
          ...(options.ca !== undefined
            ? { secureContext: createSecureContext({ ca: options.ca }) }
            : {}),
          ...(options.insecureSkipTlsVerify ? { rejectUnauthorized: false } : {}),
        })
      : new HttpAgent(pool);
  }

  /** A client for a kubeconfig's context (default: the current one). */
  static async fromKubeconfig(
    kubeconfigPath: string,
    options: Omit<ApiClientOptions, keyof ConnectionOptions> & { readonly context?: string } = {},
  ): Promise<ApiClient> {
    const { context, ...rest } = options;
    const { namespace: _ns, ...connection } = await loadKubeconfigConnection(
      kubeconfigPath,
      context,
    );
    return new ApiClient({ ...connection, ...rest });
  }

  /** The object `ref` names, as the server stores it (narrow it with `asKind`). */
  get(ref: ObjectRef, options: CallOptions = {}): Promise<KubeObject> {
    return this.#object('GET', resourcePath(ref), new URLSearchParams(), undefined, options);
  }

  async list(ref: CollectionRef, options: ListCallOptions = {}): Promise<KubeList> {
    const query = new URLSearchParams();
    if (options.labelSelector) query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
    if (options.limit !== undefined) query.set('limit', String(options.limit));
    // Upstream rejects a continue token together with a resourceVersion.
    if (options.continue) query.set('continue', options.continue);
    else if (options.resourceVersion) query.set('resourceVersion', options.resourceVersion);
    const path = resourcePath(ref);
    return kubeList(await this.#object('GET', path, query, undefined, options), path);
  }

  /** POST to the collection; the object's namespace is the ref's. */
  create(ref: CollectionRef, object: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    const path = resourcePath({ ...ref, name: undefined });
    return this.#object('POST', path, this.#writeQuery(options), json(object), options);
  }

  /**
   * PUT the whole object. Its `metadata.resourceVersion` is the precondition: a stale one
   * answers 409 Conflict (without one, the server decides whether an unconditional update is
   * allowed, as upstream).
   */
  update(ref: ObjectRef, object: KubeObject, options: WriteOptions = {}): Promise<KubeObject> {
    return this.#object('PUT', resourcePath(ref), this.#writeQuery(options), json(object), options);
  }

  /** PUT to `…/status`: only the status changes (same resourceVersion precondition). */
  updateStatus(
    ref: ObjectRef,
    object: KubeObject,
    options: WriteOptions = {},
  ): Promise<KubeObject> {
    const path = resourcePath({ ...ref, subresource: 'status' });
    return this.#object('PUT', path, this.#writeQuery(options), json(object), options);
  }

  /** PUT to `…/<subresource>` (a Scale to `…/scale`), with the same precondition. */
  updateSubresource(
    ref: ObjectRef,
    subresource: string,
    object: KubeObject,
    options: WriteOptions = {},
  ): Promise<KubeObject> {
    const path = resourcePath({ ...ref, subresource });
    return this.#object('PUT', path, this.#writeQuery(options), json(object), options);
  }

  /**
   * PATCH with `type`'s content type. `body` is an object, or for `json` an RFC 6902 operation
   * array. `apply` needs a field manager (the server answers 422 without one).
   */
  patch(
    ref: ObjectRef,
    body: unknown,
    type: PatchType,
    options: PatchOptions = {},
  ): Promise<KubeObject> {
    const query = this.#writeQuery(options);
    if (options.force !== undefined) query.set('force', String(options.force));
    const path = resourcePath({ ...ref, subresource: options.subresource });
    const payload = { text: stringifyJson(body), contentType: PATCH_CONTENT_TYPES[type] };
    return this.#object('PATCH', path, query, payload, options);
  }

  /** DELETE with a DeleteOptions body; answers the object (when finalizers keep it) or a Status. */
  delete(ref: ObjectRef, options: DeleteOptions = {}): Promise<KubeObject> {
    const body: Record<string, unknown> = {};
    if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
    if (options.gracePeriodSeconds !== undefined) {
      body.gracePeriodSeconds = options.gracePeriodSeconds;
    }
    if (options.preconditions) body.preconditions = options.preconditions;
    if (options.dryRun) body.dryRun = ['All'];
    return this.#object('DELETE', resourcePath(ref), new URLSearchParams(), json(body), options);
  }

  /** POST to a subresource of an object, e.g. `binding` or `eviction`. */
  createSubresource(
    ref: ObjectRef,
    subresource: string,
    body: KubeObject,
    options: WriteOptions = {},
  ): Promise<KubeObject> {
    const path = resourcePath({ ...ref, subresource });
    return this.#object('POST', path, this.#writeQuery(options), json(body), options);
  }

  /**
   * GET an absolute API path that is no object or collection, such as the discovery documents
   * (`/api`, `/apis`, `/api/v1`, `/apis/apps/v1`); client-go's `RESTClient().Get().AbsPath()`.
   * The answer is parsed JSON, for the caller to check.
   */
  getPath(path: string, options: CallOptions = {}): Promise<unknown> {
    return this.#call('GET', path, new URLSearchParams(), undefined, options);
  }

  /** POST a JSON body to an absolute path that is no collection (the dashboard's login links). */
  postPath(path: string, body: unknown, options: CallOptions = {}): Promise<unknown> {
    const payload = { text: JSON.stringify(body), contentType: 'application/json' };
    return this.#call('POST', path, new URLSearchParams(), payload, options);
  }

  /** The server URL requests go to (the kubeconfig's). */
  get server(): string {
    return this.#options.server;
  }

  /** Closes the pooled connections; requests in flight fail. */
  close(): void {
    this.#agent.destroy();
  }

  #writeQuery(options: WriteOptions): URLSearchParams {
    const query = new URLSearchParams();
    const manager = options.fieldManager ?? this.#options.fieldManager;
    if (manager) query.set('fieldManager', manager);
    if (options.dryRun) query.set('dryRun', 'All');
    return query;
  }

  /** {@link #call} for an answer that is an object (every object and collection path's). */
  async #object(
    method: string,
    path: string,
    query: URLSearchParams,
    payload: Payload | undefined,
    options: CallOptions,
  ): Promise<KubeObject> {
    const body = await this.#call(method, path, query, payload, options);
    if (!isKubeObject(body)) throw new Error(`${method} ${path}: the response is not an object`);
    return body;
  }

  async #call(
    method: string,
    path: string,
    query: URLSearchParams,
    payload: Payload | undefined,
    options: CallOptions,
  ): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 60_000;
    const release = holdClock(this.#options.activity);
    const turns = this.#options.activity?.turns;
    const send = (): Promise<Answer> =>
      this.#send(method, path, query, payload, options.signal, timeoutMs);
    let answer: Answer;
    try {
      // Serial runs: one request at a time, in the order they were issued.
      answer = await (turns === undefined ? send() : turns.serialize(send));
    } finally {
      release();
    }
    if (answer.code < 200 || answer.code >= 300) throw errorOf(answer);
    if (answer.text.trim() === '') return {};
    try {
      return parseJson(answer.text);
    } catch {
      throw new Error(`${method} ${path}: the response is not JSON: ${answer.text.slice(0, 200)}`);
    }
  }

  /** The request target: the server URL's path, then `path`, then the query. */
  #target(path: string, query: URLSearchParams): string {
    const search = query.toString();
    // Most paths (resourcePath's encoded segments) are already what the URL parser would make
    // of them; only the rest (reserved characters, `%`, dot segments) go through it. A URL
    // object per request was ~2 % of the controller thread in a 1,000-pod rollout.
    if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path)) {
      const target = `${this.#prefix}${path}`;
      return search === '' ? target : `${target}?${search}`;
    }
    const url = new URL(this.#base);
    url.pathname = `${this.#prefix}${path}`;
    url.search = search;
    return `${url.pathname}${url.search}`;
  }

  /**
   * One exchange; rejects with `signal`'s reason when it aborts first, or with a
   * {@link RequestTimeoutError} after `timeoutMs` of the client's clock. One settle function
   * instead of an AbortController and three listeners per request (~3 % of the controller
   * thread in a 1,000-pod rollout).
   */
  #send(
    method: string,
    path: string,
    query: URLSearchParams,
    payload: Payload | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<Answer> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': this.#options.userAgent ?? 'fleetyard-api-client',
    };
    if (this.#options.token) headers.authorization = `Bearer ${this.#options.token}`;
    if (payload !== undefined) {
      headers['content-type'] = payload.contentType;
      // node does not frame a DELETE body by itself.
      headers['content-length'] = String(Buffer.byteLength(payload.text));
    }
    const clock = this.#options.clock ?? realClock;
    return new Promise<Answer>((resolve, reject) => {
      let req: ClientRequest | undefined;
      let settled = false;
      let cancel = (): void => {};
      let unsubscribe = (): void => {};
      const settle = (): boolean => {
        if (settled) return false;
        settled = true;
        cancel();
        unsubscribe();
        return true;
      };
      // Settle first, then tear the socket down (its own error is then ignored).
      const fail = (err: unknown): void => {
        if (!settle()) return;
        reject(err);
        req?.destroy();
      };
      const onAbort = (): void => fail(signal?.reason);
      cancel = clock.setTimer(timeoutMs, () =>
        fail(new RequestTimeoutError(method, path, timeoutMs)),
      );
      if (signal?.aborted) {
        fail(signal.reason);
        return;
      }
      // One listener per signal however many requests share it (abort-fan-out.ts): Node's
      // EventTarget walks its whole list on each add and remove, 5 % of the controller thread
      // with 1,000 nodes' requests on one signal.
      if (signal !== undefined) unsubscribe = onSignalAbort(signal, onAbort);
      try {
        const send = this.#https ? httpsRequest : httpRequest;
        req = send(
          {
            ...this.#endpoint,
            path: this.#target(path, query),
            method,
            headers,
            agent: this.#agent,
          },
          (res) =>
            readAnswer(res).then((answer) => {
              if (settle()) resolve(answer);
            }, fail),
        );
        req.on('error', fail);
        req.end(payload?.text);
      } catch (err) {
        // An invalid header or path throws here: fail, and stop the timer.
        fail(err);
      }
    });
  }
}

/** Paths the URL parser leaves as they are (no reserved characters, no `%`). */
const PLAIN_PATH = /^[A-Za-z0-9\-_.!~*'()/]*$/;
/** `.` and `..` segments, which the URL parser resolves. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;

function json(body: unknown): Payload {
  return { text: stringifyJson(body), contentType: 'application/json' };
}
