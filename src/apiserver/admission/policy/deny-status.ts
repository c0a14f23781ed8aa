/**
 * The error a denying policy returns, after upstream's dispatcher: `admission.NewForbidden`'s
 * message (`<resource>.<group> "<name>" is forbidden: ValidatingAdmissionPolicy '<policy>' with
 * binding '<binding>' denied request: <message>`, the name from the object, its generateName, or
 * `Unknown`), then the reason and code of the failed validation (Invalid 422 by default,
 * Forbidden 403, Unauthorized 401, RequestEntityTooLarge 413) and the message again as a cause.
 *
 * @module
 */
import { qualifiedResource, StatusError, type StatusReason } from '../../../api/errors.js';
import type { PolicyRequest } from './types.js';

const CODES: Readonly<Record<string, { reason: StatusReason; code: number }>> = {
  Forbidden: { reason: 'Forbidden', code: 403 },
  Unauthorized: { reason: 'Unauthorized', code: 401 },
  RequestEntityTooLarge: { reason: 'RequestEntityTooLarge', code: 413 },
  Invalid: { reason: 'Invalid', code: 422 },
};

/** Upstream `extractResourceName`: DELETE has no object, so its name reads `Unknown`. */
function requestObjectName(req: PolicyRequest): string {
  const meta = req.object?.metadata;
  if (meta?.name) return meta.name;
  if (meta?.generateName) return meta.generateName;
  return 'Unknown';
}

export interface DeniedDecision {
  readonly policy: string;
  readonly binding?: string;
  readonly message: string;
  readonly reason?: string;
}

/** The text of a denial, without the `… is forbidden: ` prefix. */
export function denialText(d: DeniedDecision): string {
  return d.binding !== undefined
    ? `ValidatingAdmissionPolicy '${d.policy}' with binding '${d.binding}' denied request: ${d.message}`
    : `ValidatingAdmissionPolicy '${d.policy}' denied request: ${d.message}`;
}

export function denyError(req: PolicyRequest, d: DeniedDecision): StatusError {
  const text = denialText(d);
  const gr = { group: req.resource.group, resource: req.resource.resource };
  const name = requestObjectName(req);
  const message = `${qualifiedResource(gr)} "${name}" is forbidden: ${text}`;
  // A config error carries no reason: upstream then uses Invalid too.
  const { reason, code } = CODES[d.reason ?? 'Invalid'] ?? { reason: 'Invalid', code: 422 };
  return new StatusError(code, reason, message, {
    name,
    group: gr.group,
    kind: gr.resource,
    causes: [{ message: text }],
  });
}
