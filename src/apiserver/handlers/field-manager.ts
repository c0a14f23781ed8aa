/**
 * Who changed what: the request's field manager (`fieldManager`, else the User-Agent's
 * first token, as upstream), the Create/Update/PatchOptions checks on it, and the
 * `metadata.managedFields` bookkeeping of every non-apply write (operation `Update`).
 *
 * @module
 */

import { zeroObject } from '../../api/kinds/zero-values.js';
import {
  type FieldManagerOptions,
  fieldSetFromPaths,
  managerOrUserAgent,
  type OptionsKind,
  recordScaleUpdate,
  recordUpdate,
  validateWriteOptions,
} from '../../api/managed-fields/index.js';
import type { KubeObject } from '../../api/object.js';
import { apiVersionOf } from '../../api/resource.js';
import { formatTime } from '../../api/time.js';
import { queryBool } from '../http/query-bool.js';
import type { ApiServices, ResourceCall } from './context.js';
import type { KindSchema } from './kind-schema.js';

export function managerOf(call: ResourceCall): string {
  return managerOrUserAgent(
    call.query.get('fieldManager') ?? undefined,
    call.req.headers['user-agent'],
  );
}

/** Upstream `ValidateCreateOptions` / `ValidateUpdateOptions` / `ValidatePatchOptions`: 422 on a bad field manager or force. */
export function checkWriteOptions(call: ResourceCall, kind: OptionsKind, isApply = false): void {
  const force = queryBool(call.query, 'force');
  const error = validateWriteOptions(kind, {
    fieldManager: call.query.get('fieldManager') ?? undefined,
    ...(force !== undefined ? { force } : {}),
    isApply,
  });
  if (error) throw error;
}

/** Main-resource writes never own `status` of kinds that have a status subresource (upstream reset fields). */
const STATUS_ONLY = fieldSetFromPaths([['status']]);

/** The store's `track` hook for a non-apply write through `call`'s endpoint. */
export function trackUpdates(
  api: ApiServices,
  call: ResourceCall,
  { schema, nav }: KindSchema,
): (next: KubeObject, current: KubeObject | undefined) => KubeObject {
  const { def } = call;
  const sub = call.info.subresource;
  const manager = managerOf(call);
  const now = formatTime(api.clock.now());
  if (sub === 'scale') {
    return (next, current) =>
      current === undefined
        ? next
        : recordScaleUpdate(current, next, {
            manager,
            parentApiVersion: apiVersionOf(def),
            now,
          });
  }
  // Built once per request, field by field (a conditional spread costs ~1 µs on Node 20).
  const options: FieldManagerOptions = {
    manager,
    apiVersion: apiVersionOf(def),
    subresource: sub === '' ? undefined : sub,
    now,
    schema,
    nav,
    resetFields: sub === '' && def.statusSubresource ? STATUS_ONLY : undefined,
    zero: zeroObject(def),
  };
  return (next, current) => recordUpdate(current, next, options);
}
