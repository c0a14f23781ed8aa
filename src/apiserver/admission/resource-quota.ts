/**
 * The ResourceQuota admission plugin (upstream `k8s.io/apiserver/pkg/admission/plugin/
 * resourcequota`), last in upstream's chain: a create (or an update that can grow usage: a
 * Service's type, a claim's size) of a namespaced object is checked against every quota of its
 * namespace ({@link checkRequest}), refused with a 403 naming the object, e.g.
 * `pods "web-x2kq9" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2,
 * limited: pods=2`, and otherwise charged: the quotas' `status.used` is raised before the
 * object is written, so the next request sees it before the quota controller recounts.
 *
 * Upstream reads quotas from a cache, charges them with a status update, and on a conflict
 * re-reads and re-checks (3 retries). Here the read, the check and the charge happen in one
 * synchronous step against the store's newest state (`getLatest`, writes sequenced but not yet
 * durable included): no other write can come between them in this process, so the charge is
 * written with the revision just read and cannot conflict; there is nothing to retry.
 *
 * Like upstream, a charge for a write that then fails stays until the controller recounts.
 * The store's hooks do not say whether a request is a dry run, so a server-side dry run is
 * charged too (upstream does not charge it) until the next recount.
 *
 * @module
 */
import { forbidden } from '../../api/errors.js';
import { getObj } from '../../api/kinds/json.js';
import type { KubeObject } from '../../api/object.js';
import {
  checkRequest,
  type QuotaRequest,
  type QuotaState,
  quotaState,
} from '../../api/quota/check-request.js';
import { evaluatorFor } from '../../api/quota/evaluators.js';
import { listsEqual, toJsonList } from '../../api/quota/resource-list.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend, KeyValue } from '../../storage/backend.js';
import { type Clock, realClock } from '../../util/clock.js';
import { listPrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import { type Admission, storedObjectEncoder } from '../store/object-store.js';
import { admissionSubject } from './limit-ranger.js';

const QUOTAS = { group: '', plural: 'resourcequotas', namespaced: true } as const;

interface StoredQuota {
  readonly kv: KeyValue;
  readonly object: KubeObject;
  readonly state: QuotaState;
}

/** The namespace's quotas by name, newest writes included. */
function namespaceQuotas(backend: Backend, namespace: string): StoredQuota[] {
  const out: StoredQuota[] = [];
  for (const listed of backend.list(listPrefix(QUOTAS, namespace)).items) {
    const kv = backend.getLatest(listed.key);
    if (kv === undefined) continue;
    const object = parseStoredObject(kv.value);
    out.push({ kv, object, state: quotaState(object) });
  }
  return out.sort((a, b) =>
    a.state.name < b.state.name ? -1 : a.state.name > b.state.name ? 1 : 0,
  );
}

/** Writes the raised `status.used` of every quota the request changed. */
function charge(backend: Backend, before: readonly StoredQuota[], after: readonly QuotaState[]) {
  for (const [i, stored] of before.entries()) {
    const next = after[i]!;
    if (listsEqual(stored.state.used, next.used)) continue;
    const status = { ...getObj(stored.object, 'status') };
    status.used = toJsonList(next.used);
    const updated: KubeObject = { ...stored.object, status };
    // Sequenced now, in this synchronous step; durable with (or before) the object's write.
    // If storage refuses it, the object's own write fails as well.
    backend
      .update(stored.kv.key, storedObjectEncoder(updated), stored.kv.modRevision)
      .catch(() => undefined);
  }
}

/** Checks and charges one request; throws upstream's 403 when a quota refuses it. */
function evaluate(
  backend: Backend,
  def: ResourceDefinition,
  namespace: string,
  request: QuotaRequest,
  dryRun: boolean,
): void {
  if (!def.namespaced || namespace === '') return;
  const ev = evaluatorFor(def.group, def.plural);
  if (ev === undefined || !ev.handles(request.operation)) return;
  const stored = namespaceQuotas(backend, namespace);
  if (stored.length === 0) return;
  const result = checkRequest(
    stored.map((q) => q.state),
    request,
    ev,
  );
  if (!result.ok) {
    throw forbidden(
      { group: def.group, resource: def.plural },
      admissionSubject(request.object, request.old),
      result.message,
    );
  }
  // A dry run is checked as a real write would be, and charged to nothing (upstream skips
  // the quota update for dry runs).
  if (!dryRun) charge(backend, stored, result.quotas);
}

export interface ResourceQuotaAdmissionOptions {
  /** Decides whether a deleting pod's grace period is over. @default realClock */
  readonly clock?: Clock;
}

/** The plugin as object-store hooks: `admitCreate` for creates, `preserve` for updates. */
export function resourceQuotaAdmission(
  backend: Backend,
  options: ResourceQuotaAdmissionOptions = {},
): Admission {
  const clock = options.clock ?? realClock;
  return {
    admitCreate(def, namespace, obj, attributes) {
      const request = { operation: 'create', object: obj, now: clock.now() } as const;
      evaluate(backend, def, namespace, request, attributes?.dryRun === true);
    },
    preserve(def, next, current, attributes) {
      const namespace = current.metadata?.namespace ?? '';
      evaluate(
        backend,
        def,
        namespace,
        {
          operation: 'update',
          object: next,
          old: current,
          now: clock.now(),
        },
        attributes?.dryRun === true,
      );
    },
  };
}
