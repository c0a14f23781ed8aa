/**
 * Request and response bodies as an event records them (upstream `LogRequestObject`,
 * `LogRequestPatch`, `LogResponseObject` in `pkg/audit/request.go`): JSON text taken at the
 * time they are logged, `metadata.managedFields` dropped from an object, a list's items or a
 * Table's rows when the policy says `omitManagedFields`.
 *
 * One deliberate difference: a TokenReview's `spec.token` is dropped from a request body
 * logged at level `Request`. Upstream logs it (its own GCE policy therefore keeps
 * `tokenreviews` at `Metadata`); here a bearer token reaches the log only when a policy asks
 * for `RequestResponse`, where upstream also logs a TokenRequest's issued `status.token`.
 *
 * @module
 */
import type { ObjectRef } from './event.js';
import type { Level } from './types.js';

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** True for a `metav1.Status` body (what an error, or a delete, answers). */
export function isStatus(v: unknown): v is JsonObject & { code?: unknown } {
  return isObject(v) && v.kind === 'Status';
}

/** The object without `metadata.managedFields` (nor in `items[]`, nor in Table `rows[].object`). */
export function withoutManagedFields(v: unknown): unknown {
  if (!isObject(v)) return v;
  let out: JsonObject = v;
  const meta = v.metadata;
  if (isObject(meta) && 'managedFields' in meta) {
    const { managedFields: _dropped, ...rest } = meta;
    out = { ...out, metadata: rest };
  }
  if (Array.isArray(v.items)) out = { ...out, items: v.items.map(withoutManagedFields) };
  if (v.kind === 'Table' && Array.isArray(v.rows)) {
    out = {
      ...out,
      rows: v.rows.map((row: unknown) =>
        isObject(row) && 'object' in row
          ? { ...row, object: withoutManagedFields(row.object) }
          : row,
      ),
    };
  }
  return out;
}

/** The request body's JSON text as logged at `level` (Request or RequestResponse). */
export function requestBodyText(
  body: unknown,
  ref: ObjectRef | undefined,
  level: Level,
  omitManagedFields: boolean,
): string {
  let v = omitManagedFields ? withoutManagedFields(body) : body;
  const tokenReview = ref?.apiGroup === 'authentication.k8s.io' && ref.resource === 'tokenreviews';
  if (tokenReview && level === 'Request' && isObject(v) && isObject(v.spec) && 'token' in v.spec) {
    const { token: _token, ...spec } = v.spec;
    v = { ...v, spec };
  }
  return JSON.stringify(v) ?? 'null';
}

/** The response body's JSON text (RequestResponse only). */
export function responseBodyText(body: unknown, omitManagedFields: boolean): string {
  return JSON.stringify(omitManagedFields ? withoutManagedFields(body) : body) ?? 'null';
}

/**
 * A patch as the request object: upstream logs the raw patch bytes. Text that is not JSON (an
 * apply patch in YAML) would break the line, so it is logged as a JSON string instead.
 */
export function patchText(patch: string | Uint8Array): string {
  const text = typeof patch === 'string' ? patch : Buffer.from(patch).toString('utf8');
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return JSON.stringify(text);
  }
}

/** The name, namespace, uid and resourceVersion of a body, for `objectRef`'s empty fields. */
export function fillObjectRef(ref: ObjectRef, body: unknown): void {
  if (!isObject(body) || !isObject(body.metadata)) return;
  const m = body.metadata;
  const str = (k: string): string => {
    const v = m[k];
    return typeof v === 'string' ? v : '';
  };
  if (!ref.namespace) ref.namespace = str('namespace');
  if (!ref.name) ref.name = str('name');
  if (!ref.uid) ref.uid = str('uid');
  if (!ref.resourceVersion) ref.resourceVersion = str('resourceVersion');
}
