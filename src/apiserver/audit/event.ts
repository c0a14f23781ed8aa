/**
 * `audit.k8s.io/v1` Events: built from a request as upstream's `NewEventFromRequest`
 * (`pkg/audit/request.go`) builds them, and written as upstream's log backend writes them: one
 * JSON document per line, fields in Go's struct order, empty ones omitted, Go's HTML-safe
 * escapes, timestamps as RFC 3339 with microseconds (`metav1.MicroTime`).
 *
 * Request and response bodies are kept as JSON text taken when they were logged, so a later
 * change to the object (the store filling its uid) does not show, as upstream encodes at
 * `LogRequestObject` time.
 *
 * @module
 */
import { goHtmlSafe } from '../../api/managed-fields/go-json.js';
import type { UserInfo } from '../authentication/user.js';
import type { Attributes } from '../authorization/types.js';
import { AUDIT_API_VERSION, type Level, type Stage } from './types.js';

/** Upstream `maxUserAgentLength`: a longer User-Agent is cut and marked. */
const MAX_USER_AGENT_LENGTH = 1024;
const USER_AGENT_TRUNCATE_SUFFIX = '...TRUNCATED';

/** The request header a client (or a front proxy) sets to choose the audit ID. */
export const AUDIT_ID_HEADER = 'audit-id';

/** What an event needs of a Node request; `IncomingMessage` fits. */
export interface AuditedRequest {
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly socket?: { readonly remoteAddress?: string | undefined } | undefined;
}

/** `objectRef` (upstream `ObjectReference`). */
export interface ObjectRef {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The bounded fields of a Status an event keeps (upstream `AuditContext.LogResponseObject`). */
export interface ResponseStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: Readonly<Record<string, unknown>>;
  code: number;
}

/** One request's event, filled in as the request is served and written at each stage. */
export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: UserInfo;
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent: string;
  objectRef?: ObjectRef;
  responseStatus?: ResponseStatus;
  /** JSON text. */
  requestObject?: string;
  /** JSON text. */
  responseObject?: string;
  /** Epoch ms. */
  requestReceivedTimestamp: number;
  /** Epoch ms. */
  stageTimestamp: number;
  annotations?: Record<string, string>;
}

/** The request's `Audit-ID` header (the first, untrimmed, as upstream), else a new ID. */
export function auditIdOf(req: AuditedRequest, newId: () => string): string {
  const h = req.headers[AUDIT_ID_HEADER];
  const v = Array.isArray(h) ? h[0] : h;
  return v !== undefined && v !== '' ? v : newId();
}

/** A new event at `RequestReceived` (upstream `NewEventFromRequest` + `LogRequestMetadata`). */
export function newEvent(
  req: AuditedRequest,
  attributes: Attributes,
  level: Level,
  auditID: string,
  receivedAt: number,
): AuditEvent {
  const ev: AuditEvent = {
    level,
    auditID,
    stage: 'RequestReceived',
    requestURI: req.url ?? '/',
    verb: attributes.verb,
    user: attributes.user,
    sourceIPs: sourceIPs(req),
    userAgent: userAgentOf(req),
    requestReceivedTimestamp: receivedAt,
    stageTimestamp: receivedAt,
  };
  if (attributes.resourceRequest) {
    ev.objectRef = {
      resource: attributes.resource ?? '',
      namespace: attributes.namespace ?? '',
      name: attributes.name ?? '',
      apiGroup: attributes.apiGroup ?? '',
      apiVersion: attributes.apiVersion ?? '',
      subresource: attributes.subresource ?? '',
    };
  }
  return ev;
}

function userAgentOf(req: AuditedRequest): string {
  const h = req.headers['user-agent'];
  const ua = (Array.isArray(h) ? h[0] : h) ?? '';
  return ua.length > MAX_USER_AGENT_LENGTH
    ? ua.slice(0, MAX_USER_AGENT_LENGTH) + USER_AGENT_TRUNCATE_SUFFIX
    : ua;
}

/**
 * Upstream `utilnet.SourceIPs`: the valid addresses of `X-Forwarded-For`, then `X-Real-Ip`
 * unless already listed, then the connection's peer unless it is already last. Like upstream,
 * the headers are recorded whoever sent them (they are client-supplied and only hints); the
 * peer address, which cannot be spoofed, is always the last entry.
 */
export function sourceIPs(req: AuditedRequest): string[] {
  const ips: string[] = [];
  const forwarded = header(req, 'x-forwarded-for');
  if (forwarded !== '') {
    for (const part of forwarded.split(',')) {
      const ip = parseIP(part.trim());
      if (ip !== undefined) ips.push(ip);
    }
  }
  const realIp = parseIP(header(req, 'x-real-ip'));
  if (realIp !== undefined && !ips.includes(realIp)) ips.push(realIp);
  const remote = parseIP(req.socket?.remoteAddress ?? '');
  if (remote !== undefined && ips.at(-1) !== remote) ips.push(remote);
  return ips;
}

function header(req: AuditedRequest, name: string): string {
  const h = req.headers[name];
  return (Array.isArray(h) ? h[0] : h) ?? '';
}

/**
 * An IP address in Go's `net.IP.String()` form, or undefined: IPv4 dotted quads, IPv6
 * compressed and lower-case, an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, how Node reports
 * an IPv4 peer on a dual-stack socket) as its IPv4 form, as Go prints it.
 */
export function parseIP(text: string): string | undefined {
  if (text === '') return undefined;
  const v4 = parseIPv4(text.startsWith('::ffff:') ? text.slice(7) : text);
  if (v4 !== undefined) return v4;
  try {
    // The URL parser normalises IPv6 literals (compression, case) and rejects bad ones.
    const host = new URL(`http://[${text}]/`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
    if (mapped !== null) {
      const hi = Number.parseInt(mapped[1]!, 16);
      const lo = Number.parseInt(mapped[2]!, 16);
      return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
    }
    return host;
  } catch {
    return undefined;
  }
}

function parseIPv4(text: string): string | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (m === null) return undefined;
  const parts = m.slice(1).map(Number);
  // Go's ParseIP refuses octets over 255 and leading zeros ("010").
  if (parts.some((p, i) => p > 255 || (m[i + 1]!.length > 1 && m[i + 1]!.startsWith('0')))) {
    return undefined;
  }
  return parts.join('.');
}

/** `metav1.MicroTime` text: RFC 3339 in UTC with six fraction digits. */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.min(999, Math.round((ms - whole) * 1000));
  const iso = new Date(whole).toISOString(); // 2026-12-02T05:10:00.123Z
  return `${iso.slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

/** The event as one log line, without the newline (upstream's JSON encoder, HTML-safe). */
export function encodeEvent(ev: AuditEvent): string {
  let s = `{"kind":"Event","apiVersion":"${AUDIT_API_VERSION}","level":"${ev.level}"`;
  s += `,"auditID":${JSON.stringify(ev.auditID)},"stage":"${ev.stage}"`;
  s += `,"requestURI":${JSON.stringify(ev.requestURI)},"verb":${JSON.stringify(ev.verb)}`;
  s += `,"user":${JSON.stringify(goUser(ev.user))}`;
  if (ev.impersonatedUser !== undefined) {
    s += `,"impersonatedUser":${JSON.stringify(goUser(ev.impersonatedUser))}`;
  }
  if (ev.sourceIPs.length > 0) s += `,"sourceIPs":${JSON.stringify(ev.sourceIPs)}`;
  if (ev.userAgent !== '') s += `,"userAgent":${JSON.stringify(ev.userAgent)}`;
  if (ev.objectRef !== undefined) s += `,"objectRef":${JSON.stringify(goObjectRef(ev.objectRef))}`;
  if (ev.responseStatus !== undefined) {
    s += `,"responseStatus":${JSON.stringify(goResponseStatus(ev.responseStatus))}`;
  }
  if (ev.requestObject !== undefined) s += `,"requestObject":${ev.requestObject}`;
  if (ev.responseObject !== undefined) s += `,"responseObject":${ev.responseObject}`;
  s += `,"requestReceivedTimestamp":"${microTime(ev.requestReceivedTimestamp)}"`;
  s += `,"stageTimestamp":"${microTime(ev.stageTimestamp)}"`;
  if (ev.annotations !== undefined) s += `,"annotations":${JSON.stringify(ev.annotations)}`;
  return goHtmlSafe(`${s}}`);
}

/** authentication/v1 `UserInfo`: `username, uid, groups, extra`, each omitted when empty. */
function goUser(u: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (u.username !== '') out.username = u.username;
  if (u.uid !== undefined && u.uid !== '') out.uid = u.uid;
  if (u.groups.length > 0) out.groups = u.groups;
  if (u.extra !== undefined && Object.keys(u.extra).length > 0) out.extra = u.extra;
  return out;
}

const OBJECT_REF_FIELDS = [
  'resource',
  'namespace',
  'name',
  'uid',
  'apiGroup',
  'apiVersion',
  'resourceVersion',
  'subresource',
] as const;

function goObjectRef(ref: ObjectRef): ObjectRef {
  const out: ObjectRef = {};
  for (const k of OBJECT_REF_FIELDS) {
    const v = ref[k];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/**
 * metav1.Status without its type: `metadata` always (`{}`, a struct), then `status, message,
 * reason, details, code` when set; in details `name, group, kind, uid, causes,
 * retryAfterSeconds`, in a cause `reason, message, field` (Go's order, `omitempty`).
 */
function goResponseStatus(rs: ResponseStatus): Record<string, unknown> {
  const out: Record<string, unknown> = { metadata: {} };
  if (rs.status) out.status = rs.status;
  if (rs.message) out.message = rs.message;
  if (rs.reason) out.reason = rs.reason;
  if (rs.details !== undefined) out.details = goFields(rs.details, DETAIL_FIELDS);
  if (rs.code) out.code = rs.code;
  return out;
}

const DETAIL_FIELDS = ['name', 'group', 'kind', 'uid', 'causes', 'retryAfterSeconds'];
const CAUSE_FIELDS = ['reason', 'message', 'field'];

function goFields(o: Readonly<Record<string, unknown>>, fields: readonly string[]): object {
  const out: Record<string, unknown> = {};
  for (const k of fields) {
    const v = o[k];
    if (v === undefined || v === null || v === '' || v === 0) continue;
    if (k === 'causes') {
      if (!Array.isArray(v) || v.length === 0) continue;
      out.causes = v.map((c: unknown) =>
        c !== null && typeof c === 'object' ? goFields({ ...c }, CAUSE_FIELDS) : c,
      );
    } else {
      out[k] = v;
    }
  }
  return out;
}
