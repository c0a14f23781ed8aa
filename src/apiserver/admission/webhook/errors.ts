/**
 * The two ways a webhook call goes wrong, after upstream `webhook/errors` and
 * `util/webhook/error.go`: {@link CallingWebhookError} (the webhook could not be called or
 * answered nonsense; `failurePolicy` decides: `Ignore` skips it, `Fail` answers 500
 * `Internal error occurred: failed calling webhook "x": …`) and a rejection (the webhook said
 * `allowed: false`; always refused, with its status: `admission webhook "x" denied the request:
 * <message>`).
 *
 * @module
 */
import {
  badRequest,
  type StatusDetails,
  StatusError,
  type StatusReason,
} from '../../../api/errors.js';
import { isJsonObject } from '../../../api/object.js';

/** Upstream `ErrCallingWebhook`. */
export class CallingWebhookError extends Error {
  readonly webhookName: string;
  constructor(webhookName: string, reason: string) {
    super(`failed calling webhook "${webhookName}": ${reason}`);
    this.name = 'CallingWebhookError';
    this.webhookName = webhookName;
  }
}

/** Upstream `ErrWebhookRejection`. */
export class WebhookRejection extends Error {
  readonly status: StatusError;
  constructor(status: StatusError) {
    super(status.message);
    this.name = 'WebhookRejection';
    this.status = status;
  }
}

const REASONS: readonly StatusReason[] = [
  'BadRequest',
  'Unauthorized',
  'Forbidden',
  'NotFound',
  'MethodNotAllowed',
  'NotAcceptable',
  'AlreadyExists',
  'Conflict',
  'Gone',
  'Expired',
  'RequestEntityTooLarge',
  'UnsupportedMediaType',
  'Invalid',
  'TooManyRequests',
  'InternalError',
  'ServiceUnavailable',
  'Timeout',
];

function isStatusReason(v: unknown): v is StatusReason {
  return typeof v === 'string' && REASONS.some((r) => r === v);
}

function detailsOf(v: unknown): StatusDetails | undefined {
  if (!isJsonObject(v)) return undefined;
  const out: StatusDetails = {};
  if (typeof v.name === 'string') out.name = v.name;
  if (typeof v.group === 'string') out.group = v.group;
  if (typeof v.kind === 'string') out.kind = v.kind;
  if (typeof v.uid === 'string') out.uid = v.uid;
  if (typeof v.retryAfterSeconds === 'number') out.retryAfterSeconds = v.retryAfterSeconds;
  if (Array.isArray(v.causes)) {
    out.causes = v.causes.filter(isJsonObject).map((c) => ({
      ...(typeof c.reason === 'string' ? { reason: c.reason } : {}),
      ...(typeof c.message === 'string' ? { message: c.message } : {}),
      ...(typeof c.field === 'string' ? { field: c.field } : {}),
    }));
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Upstream `ToStatusErr`: the webhook's status with a code of at least 400, status `Failure`,
 * and the message prefixed with who denied. Differs from upstream: a `reason` outside the
 * standard `StatusReason`s is dropped from the status (it still words the message when the
 * webhook gave no message).
 */
export function toStatusErr(webhookName: string, result: unknown): StatusError {
  const r = isJsonObject(result) ? result : {};
  const deniedBy = `admission webhook "${webhookName}" denied the request`;
  const code = typeof r.code === 'number' && r.code >= 400 ? r.code : 400;
  const message =
    typeof r.message === 'string' && r.message !== ''
      ? `${deniedBy}: ${r.message}`
      : typeof r.reason === 'string' && r.reason !== ''
        ? `${deniedBy}: ${r.reason}`
        : `${deniedBy} without explanation`;
  const err = new StatusError(code, 'BadRequest', message, detailsOf(r.details));
  // A Status without a reason is legal (`reason` omitted); keep the webhook's choice.
  if (isStatusReason(r.reason)) err.status.reason = r.reason;
  else delete err.status.reason;
  return err;
}

/** Upstream `NewDryRunUnsupportedErr`. */
export function dryRunUnsupported(webhookName: string): StatusError {
  return badRequest(`admission webhook "${webhookName}" does not support dry run`);
}
