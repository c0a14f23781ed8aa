/**
 * What the API server calls to audit a request, after upstream's audit filters
 * (`pkg/endpoints/filters/audit.go`, `audit_init.go`, `authn_audit.go`):
 *
 * ```ts
 * const audit = auditor.begin({ req, requestInfo, user });   // after authentication
 * res.setHeader('Audit-Id', audit.auditID);
 * audit.impersonated(asUser);                                 // after impersonation
 * audit.annotate('authorization.k8s.io/decision', 'allow');   // or recordAuthorization()
 * audit.requestObject(obj); audit.responseObject(obj);        // handlers, when decoded/written
 * audit.responseStarted(200);                                 // a watch, when its headers go out
 * audit.finish(res.statusCode, status);                       // when the response has ended
 * ```
 *
 * The policy is evaluated once, at `begin`, on the authenticated (not the impersonated) user,
 * as upstream. At level `None` `begin` returns a handle whose methods do nothing; at
 * `Metadata` no body is serialised (a body passed in is only read for its name, uid and
 * resourceVersion); only `Request` and `RequestResponse` serialise bodies. Events are written
 * at `RequestReceived` (at `begin`), at `ResponseStarted` for long-running requests only
 * (watches, followed logs, exec), and at `ResponseComplete`; each stage the policy omits is
 * skipped. A line is encoded when its stage is reached and queued on the sink (no I/O on the
 * request path).
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Status } from '../../api/errors.js';
import { type Clock, realClock } from '../../util/clock.js';
import type { UserInfo } from '../authentication/user.js';
import { requestAttributes } from '../authorization/request-attributes.js';
import type { Attributes, AuthorizationResult } from '../authorization/types.js';
import type { RequestInfo } from '../request-info.js';
import { fillObjectRef, isStatus, patchText, requestBodyText, responseBodyText } from './bodies.js';
import {
  type AuditEvent,
  type AuditedRequest,
  auditIdOf,
  encodeEvent,
  newEvent,
  type ResponseStatus,
} from './event.js';
import type { AuditSink, LogBackendStats } from './log-backend.js';
import { levelFor } from './policy.js';
import { type Level, levelAtLeast, type Policy, type Stage } from './types.js';

/** The response header that echoes the audit ID (upstream sets it on every response). */
export const AUDIT_ID_RESPONSE_HEADER = 'Audit-Id';
export const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
export const REASON_ANNOTATION = 'authorization.k8s.io/reason';

export interface AuditorOptions {
  readonly policy: Policy;
  readonly sink: AuditSink;
  readonly clock?: Clock;
  /** New audit IDs. @default crypto.randomUUID */
  readonly newId?: () => string;
}

export interface BeginInput {
  /** The Node request (`url`, `method`, headers, `socket.remoteAddress`). */
  readonly req: AuditedRequest & { readonly method?: string | undefined };
  readonly requestInfo: RequestInfo;
  /** The authenticated user (before impersonation). */
  readonly user: UserInfo;
  /** The authorizer's attributes when already computed; else derived from requestInfo. */
  readonly attributes?: Attributes;
  /** The impersonated user, when `Impersonate-User` was honoured. */
  readonly impersonatedUser?: UserInfo;
  /** The ID already chosen for this request (and sent as `Audit-Id`). */
  readonly auditID?: string;
  /** When the request arrived (clock ms). @default clock.now() */
  readonly receivedAt?: number;
  /** Watches and other streams: a `ResponseStarted` event is written. */
  readonly longRunning?: boolean;
}

/** One request's audit record. Every method is safe to call at any level, in any order. */
export interface AuditHandle {
  readonly auditID: string;
  readonly level: Level;
  /** True when {@link requestObject} would record the body: build it only then. */
  readonly recordsRequestBody: boolean;
  /** True when {@link responseObject} would record the body. */
  readonly recordsResponseBody: boolean;
  /** Adds an annotation; a key already set keeps its first value (as upstream). */
  annotate(key: string, value: string): void;
  impersonated(user: UserInfo): void;
  /** The decoded request object (create, update, delete options). */
  requestObject(body: unknown): void;
  /** A patch request's body, raw. */
  requestPatch(patch: string | Uint8Array): void;
  /** The object or Status written back. */
  responseObject(body: unknown): void;
  /**
   * The response body as the JSON text written (pre-encoded stored objects). Recorded at
   * `RequestResponse` only; a Status error should also go through {@link responseObject}
   * so lower levels keep its code, reason and message.
   */
  responseJson(text: string): void;
  /** Headers written: a long-running request's `ResponseStarted` event. */
  responseStarted(code: number): void;
  /** The response ended: `ResponseComplete` (after a faked `ResponseStarted` if none was). */
  finish(code?: number, status?: Status): void;
  /** The handler failed unexpectedly: a `Panic` event with 500 instead of `ResponseComplete`. */
  panicked(message: string): void;
}

export class Auditor {
  readonly #policy: Policy;
  readonly #sink: AuditSink;
  readonly #clock: Clock;
  readonly #newId: () => string;

  constructor(options: AuditorOptions) {
    this.#policy = options.policy;
    this.#sink = options.sink;
    this.#clock = options.clock ?? realClock;
    this.#newId = options.newId ?? randomUUID;
  }

  /** The request's audit ID: its `Audit-ID` header, else a new UUID. */
  auditID(req: AuditedRequest): string {
    return auditIdOf(req, this.#newId);
  }

  begin(input: BeginInput): AuditHandle {
    const handle = this.#start(input);
    if (handle instanceof NoAudit) return handle;
    handle.emit('RequestReceived');
    if (input.impersonatedUser !== undefined) handle.impersonated(input.impersonatedUser);
    return handle;
  }

  #start(input: BeginInput): RequestAudit | NoAudit {
    const auditID = input.auditID ?? this.auditID(input.req);
    const attributes = input.attributes ?? attributesOf(input);
    const config = levelFor(attributes, this.#policy);
    if (config.level === 'None') return new NoAudit(auditID);
    const receivedAt = input.receivedAt ?? this.#clock.now();
    const ev = newEvent(input.req, attributes, config.level, auditID, receivedAt);
    return new RequestAudit(ev, config.omitStages, config.omitManagedFields, {
      sink: this.#sink,
      clock: this.#clock,
      longRunning: input.longRunning ?? false,
    });
  }

  /**
   * A request whose credentials were refused (upstream `WithFailedAuthenticationAudit`): one
   * `ResponseStarted` event with code 401 and no user, if the policy audits it (rules naming
   * users or groups never match it). No `RequestReceived`: upstream writes none there either.
   */
  failedAuthentication(input: {
    readonly req: AuditedRequest & { readonly method?: string | undefined };
    readonly requestInfo: RequestInfo;
    readonly clientCertificate?: boolean;
    readonly auditID?: string;
  }): void {
    const handle = this.#start({ ...input, user: { username: '', groups: [] } });
    if (handle instanceof RequestAudit) handle.failedAuthentication(input.req, input);
  }

  /** The sink's counters, when it keeps them (the log backend does). */
  get stats(): LogBackendStats | undefined {
    return this.#sink.stats;
  }

  /** Writes what is queued and stops the sink. */
  close(): Promise<void> {
    return this.#sink.close();
  }
}

/** Records an authorizer's answer as upstream's `WithAuthorization` annotates it. */
export function recordAuthorization(audit: AuditHandle, result: AuthorizationResult): void {
  audit.annotate(DECISION_ANNOTATION, result.decision === 'Allow' ? 'allow' : 'forbid');
  audit.annotate(REASON_ANNOTATION, result.reason);
}

function attributesOf(input: BeginInput): Attributes {
  const url = input.req.url ?? '/';
  const q = url.indexOf('?');
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  return requestAttributes(input.user, input.requestInfo, input.req.method ?? 'GET', query);
}

/** Level `None`: nothing recorded. */
class NoAudit implements AuditHandle {
  readonly level = 'None';
  readonly recordsRequestBody = false;
  readonly recordsResponseBody = false;
  readonly auditID: string;
  constructor(auditID: string) {
    this.auditID = auditID;
  }
  annotate(): void {}
  impersonated(): void {}
  requestObject(): void {}
  requestPatch(): void {}
  responseObject(): void {}
  responseJson(): void {}
  responseStarted(): void {}
  finish(): void {}
  panicked(): void {}
}

/** The handle of a request whose handlers run without one: records nothing. */
export const NO_AUDIT: AuditHandle = new NoAudit('');

const handles = new WeakMap<object, AuditHandle>();

/**
 * Ties a request's handle to its `IncomingMessage`, so handlers deep in the call tree (body
 * decoding, `sendJson`) reach it through {@link auditOf} without a new parameter everywhere.
 */
export function attachAudit(req: object, handle: AuditHandle): void {
  handles.set(req, handle);
}

/** The handle {@link attachAudit} tied to `req`, else {@link NO_AUDIT}. */
export function auditOf(req: object | undefined): AuditHandle {
  return (req !== undefined ? handles.get(req) : undefined) ?? NO_AUDIT;
}

/** Upstream's `fakedSuccessStatus`: the response ended without a status written. */
const CLOSED_EARLY: ResponseStatus = {
  status: 'Success',
  message: 'Connection closed early',
  code: 200,
};

class RequestAudit implements AuditHandle {
  readonly #ev: AuditEvent;
  readonly #omit: readonly Stage[];
  readonly #omitManagedFields: boolean;
  readonly #env: { sink: AuditSink; clock: Clock; longRunning: boolean };
  #codeSeen = false;
  #done = false;

  constructor(
    ev: AuditEvent,
    omit: readonly Stage[],
    omitManagedFields: boolean,
    env: { sink: AuditSink; clock: Clock; longRunning: boolean },
  ) {
    this.#ev = ev;
    this.#omit = omit;
    this.#omitManagedFields = omitManagedFields;
    this.#env = env;
  }

  get auditID(): string {
    return this.#ev.auditID;
  }
  get level(): Level {
    return this.#ev.level;
  }
  get recordsRequestBody(): boolean {
    return levelAtLeast(this.#ev.level, 'Request');
  }
  get recordsResponseBody(): boolean {
    return this.#ev.level === 'RequestResponse';
  }

  annotate(key: string, value: string): void {
    this.#ev.annotations ??= {};
    if (!(key in this.#ev.annotations)) this.#ev.annotations[key] = value;
  }

  impersonated(user: UserInfo): void {
    this.#ev.impersonatedUser = user;
  }

  requestObject(body: unknown): void {
    this.#ev.objectRef ??= {};
    const ref = this.#ev.objectRef;
    fillObjectRef(ref, body);
    if (!this.recordsRequestBody) return;
    this.#ev.requestObject = requestBodyText(body, ref, this.level, this.#omitManagedFields);
  }

  requestPatch(patch: string | Uint8Array): void {
    if (this.recordsRequestBody) this.#ev.requestObject = patchText(patch);
  }

  responseObject(body: unknown): void {
    if (isStatus(body)) this.#ev.responseStatus = boundedStatus(body);
    if (this.recordsResponseBody) {
      this.#ev.responseObject = responseBodyText(body, this.#omitManagedFields);
    }
  }

  responseJson(text: string): void {
    if (!this.recordsResponseBody) return;
    this.#ev.responseObject = this.#omitManagedFields
      ? responseBodyText(JSON.parse(text), true)
      : text.trim();
  }

  responseStarted(code: number): void {
    if (this.#codeSeen || this.#done) return;
    this.#codeSeen = true;
    this.#ev.responseStatus ??= { code };
    this.#ev.responseStatus.code = code;
    if (this.#env.longRunning) this.emit('ResponseStarted');
  }

  finish(code?: number, status?: Status): void {
    if (this.#done) return;
    if (status !== undefined) this.responseObject(status);
    if (code !== undefined) this.responseStarted(code);
    this.#done = true;
    if (this.#ev.responseStatus === undefined && this.#env.longRunning) {
      this.#ev.responseStatus = { ...CLOSED_EARLY };
      this.emit('ResponseStarted');
    }
    this.#ev.responseStatus ??= { ...CLOSED_EARLY };
    this.emit('ResponseComplete');
  }

  panicked(message: string): void {
    if (this.#done) return;
    this.#done = true;
    this.#ev.responseStatus = {
      status: 'Failure',
      reason: 'InternalError',
      message: `APIServer panic'd: ${message}`,
      code: 500,
    };
    this.emit('Panic');
  }

  /** Upstream `getAuthMethods`, then the 401 written through the audited response writer. */
  failedAuthentication(req: AuditedRequest, opts: { readonly clientCertificate?: boolean }): void {
    const methods: string[] = [];
    const h = req.headers.authorization;
    const parts = ((Array.isArray(h) ? h[0] : h) ?? '').trim().split(' ');
    const scheme = parts[0]?.toLowerCase();
    if (scheme === 'basic' && parts.length > 1) methods.push('basic');
    if (scheme === 'bearer' && parts.length > 1) methods.push('bearer');
    if (opts.clientCertificate === true) methods.push('x509');
    const message =
      methods.length > 0
        ? `Authentication failed, attempted: ${methods.join(', ')}`
        : 'Authentication failed, no credentials provided';
    this.#done = true;
    this.#ev.responseStatus = { message, code: 401 };
    this.emit('ResponseStarted');
  }

  emit(stage: Stage): void {
    if (this.#omit.includes(stage)) return;
    const ev = this.#ev;
    ev.stage = stage;
    ev.stageTimestamp =
      stage === 'RequestReceived' ? ev.requestReceivedTimestamp : this.#env.clock.now();
    this.#env.sink.write(encodeEvent(ev));
  }
}

/** The fields of a Status an event keeps (upstream copies these, not the whole object). */
function boundedStatus(s: Readonly<Record<string, unknown>>): ResponseStatus {
  const out: ResponseStatus = { code: typeof s.code === 'number' ? s.code : 0 };
  if (typeof s.status === 'string') out.status = s.status;
  if (typeof s.message === 'string') out.message = s.message;
  if (typeof s.reason === 'string') out.reason = s.reason;
  const details = s.details;
  if (details !== null && typeof details === 'object' && !Array.isArray(details)) {
    out.details = { ...details };
  }
  return out;
}
