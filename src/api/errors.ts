/**
 * Kubernetes `Status` errors with upstream reasons, codes and message formats
 * (`k8s.io/apimachinery/pkg/api/errors`). Everything the API server answers with a non-2xx
 * code is a {@link StatusError}; handlers throw them and the server renders them.
 *
 * Note the upstream quirk kept here: for 404/409/403 `details.kind` holds the *resource*
 * (plural), for 422 it holds the *Kind*.
 *
 * @module
 */
import { type FieldError, fieldErrorBody, fieldErrorText } from './field-error.js';
import { goHtmlSafe } from './managed-fields/go-json.js';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** A group-qualified resource such as `deployments.apps` (core resources have no group). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** A group-qualified kind such as `Deployment.apps`. */
export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

export function qualifiedKind(gk: GroupKind): string {
  return gk.group === '' ? gk.kind : `${gk.kind}.${gk.group}`;
}

/**
 * A Status as upstream's JSON encoder writes it: the fields in Go's struct order (`kind,
 * apiVersion, metadata, status, message, reason, details, code`; in details `name, group, kind,
 * uid, causes, retryAfterSeconds`; in a cause `reason, message, field`) and empty ones omitted
 * (`omitempty`: no `"group": ""` for core resources). `details` itself is a pointer upstream,
 * so an empty one is written as `{}`. Clients compare these strings byte for byte.
 */
export function goStatus(s: Status): GoStatus {
  const out: GoStatus = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: s.metadata ?? {},
  };
  if (s.status) out.status = s.status;
  if (s.message) out.message = s.message;
  if (s.reason) out.reason = s.reason;
  if (s.details !== undefined) out.details = goDetails(s.details);
  if (s.code) out.code = s.code;
  return out;
}

/** A {@link Status} as {@link goStatus} writes it: `omitempty` drops an empty status or code 0. */
export interface GoStatus extends Omit<Status, 'status' | 'code'> {
  status?: Status['status'];
  code?: number;
}

/**
 * A Status as kube-apiserver's JSON serializer writes it: {@link goStatus}'s order, Go's
 * HTML-safe escapes (`<` as `\u003c`: messages quote `<nil>` and `&&`), and the newline that
 * `json.Encoder.Encode` ends every document with.
 */
export function statusJson(s: Status): string {
  return `${goHtmlSafe(JSON.stringify(goStatus(s)))}\n`;
}

function goDetails(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes !== undefined && d.causes.length > 0) out.causes = d.causes.map(goCause);
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

function goCause(c: StatusCause): StatusCause {
  const out: StatusCause = {};
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  if (c.field) out.field = c.field;
  return out;
}

export class StatusError extends Error {
  readonly status: Status;
  constructor(code: number, reason: StatusReason, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'StatusError';
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason,
      code,
    };
    if (details !== undefined) this.status.details = details;
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

function grDetails(gr: GroupResource, name: string): StatusDetails {
  return { name, group: gr.group, kind: gr.resource };
}

export function notFound(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    404,
    'NotFound',
    `${qualifiedResource(gr)} "${name}" not found`,
    grDetails(gr, name),
  );
}

/** 404 for a path that names no resource: upstream's `NewNotFound` with no details. */
export function pathNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return new StatusError(
    409,
    'AlreadyExists',
    `${qualifiedResource(gr)} "${name}" already exists`,
    grDetails(gr, name),
  );
}

/** 409 for a generateName collision: upstream asks the client to retry. */
export function generateNameConflict(
  gr: GroupResource,
  name: string,
  retryAfterSeconds: number,
): StatusError {
  return new StatusError(
    409,
    'AlreadyExists',
    `${qualifiedResource(gr)} "${name}" already exists, the server was not able to generate a unique name for the object`,
    { ...grDetails(gr, name), retryAfterSeconds },
  );
}

export function conflict(gr: GroupResource, name: string, why: string): StatusError {
  return new StatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`,
    grDetails(gr, name),
  );
}

/** Upstream `OptimisticLockErrorMsg`. */
export const OPTIMISTIC_LOCK_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

export function optimisticLockConflict(gr: GroupResource, name: string): StatusError {
  return conflict(gr, name, OPTIMISTIC_LOCK_MESSAGE);
}

export function invalid(gk: GroupKind, name: string, errors: readonly FieldError[]): StatusError {
  const causes: StatusCause[] = errors.map((e) => ({
    reason: e.type,
    message: fieldErrorBody(e),
    field: e.field,
  }));
  const texts = [...new Set(errors.map(fieldErrorText))];
  const joined = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return new StatusError(422, 'Invalid', `${qualifiedKind(gk)} "${name}" is invalid: ${joined}`, {
    name,
    group: gk.group,
    kind: gk.kind,
    causes,
  });
}

export function badRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

export function unauthorized(): StatusError {
  return new StatusError(401, 'Unauthorized', 'Unauthorized');
}

export function forbidden(gr: GroupResource, name: string, why: string): StatusError {
  const subject = name === '' ? qualifiedResource(gr) : `${qualifiedResource(gr)} "${name}"`;
  return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${why}`, grDetails(gr, name));
}

export function methodNotSupported(gr: GroupResource, verb: string): StatusError {
  return new StatusError(
    405,
    'MethodNotAllowed',
    `${verb} is not supported on resources of kind "${qualifiedResource(gr)}"`,
    { group: gr.group, kind: gr.resource },
  );
}

export function notAcceptable(accepted: readonly string[]): StatusError {
  return new StatusError(
    406,
    'NotAcceptable',
    `only the following media types are accepted: ${accepted.join(', ')}`,
  );
}

export function unsupportedMediaType(
  contentType: string,
  accepted: readonly string[],
): StatusError {
  return new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    contentType === ''
      ? undefined
      : { causes: [{ reason: 'UnsupportedMediaType', message: contentType }] },
  );
}

export function requestEntityTooLarge(limitBytes: number): StatusError {
  return new StatusError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: limit is ${limitBytes}`,
  );
}

/** 410 for a watch or list start older than the history window. */
export function resourceExpired(message: string): StatusError {
  return new StatusError(410, 'Expired', message);
}

export function tooOldResourceVersion(requested: number, oldest: number): StatusError {
  return resourceExpired(`too old resource version: ${requested} (${oldest})`);
}

/** 504 for a resourceVersion newer than the server's (upstream `NewTooLargeResourceVersionError`). */
export function tooLargeResourceVersion(
  requested: number,
  current: number,
  retryAfterSeconds: number,
): StatusError {
  return new StatusError(
    504,
    'Timeout',
    `Too large resource version: ${requested}, current: ${current}`,
    {
      causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
      retryAfterSeconds,
    },
  );
}

export function internalError(message: string): StatusError {
  return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, {
    causes: [{ message }],
  });
}

export function serviceUnavailable(message: string): StatusError {
  return new StatusError(503, 'ServiceUnavailable', message);
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

export function isNotFound(e: unknown): boolean {
  return e instanceof StatusError && e.reason === 'NotFound';
}

export function isConflict(e: unknown): boolean {
  return e instanceof StatusError && e.reason === 'Conflict';
}

/**
 * A plain Go error the API server did not classify: code 500 and no `reason` (upstream's
 * `StatusReasonUnknown` is the empty string, omitted from the JSON), so kubectl prints
 * `Error from server: <message>`.
 */
export function unclassifiedError(message: string): StatusError {
  const e = new StatusError(500, 'InternalError', message);
  delete e.status.reason;
  return e;
}
