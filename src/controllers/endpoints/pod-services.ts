/**
 * Which Services a pod event concerns, after upstream `endpointsliceutil`
 * `GetPodServiceMemberships` and `GetServicesToUpdateOnPodChange`.
 *
 * A pod update matters when it moves the pod's endpoint (deletion timestamp, readiness, IPs,
 * phase) or its membership (labels, hostname, subdomain). When only the membership moved,
 * just the Services it joined or left are synced; when the endpoint moved too, all of them.
 *
 * @module
 */
import type { Pod, Service } from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import { isPodReady } from '../../api/policy/pod-conditions.js';
import { deletedObject } from '../../client/shared-informer.js';
import { objectKey } from '../../client/store.js';
import type { KindInformer } from '../../controller/kind-informer.js';
import { managesEndpoints } from './plan.js';
import { selectsPod } from './pod-address.js';

/** Keys of the Services (from the pod's namespace in `services`) whose selector picks the pod. */
export function servicesForPod(pod: Pod, services: readonly Service[]): Set<string> {
  const out = new Set<string>();
  for (const svc of services)
    if (managesEndpoints(svc) && selectsPod(svc, pod)) out.add(objectKey(svc));
  return out;
}

/** Upstream `podEndpointsChanged`: [endpoint moved, membership moved]. */
export function podEndpointsChanged(old: Pod, cur: Pod): [boolean, boolean] {
  const membership =
    !deepEqual(old.metadata?.labels ?? {}, cur.metadata?.labels ?? {}) ||
    (old.spec?.hostname ?? '') !== (cur.spec?.hostname ?? '') ||
    (old.spec?.subdomain ?? '') !== (cur.spec?.subdomain ?? '');
  const endpoint =
    (old.metadata?.deletionTimestamp ?? null) !== (cur.metadata?.deletionTimestamp ?? null) ||
    isPodReady(old) !== isPodReady(cur) ||
    // Upstream leaves the phase out (a terminal pod also turns unready); it is cheap to add and
    // covers a pod that turns Failed while its Ready condition lags.
    old.status?.phase !== cur.status?.phase ||
    !deepEqual(old.status?.podIPs ?? [], cur.status?.podIPs ?? []) ||
    old.status?.podIP !== cur.status?.podIP;
  return [endpoint, membership];
}

/** Service keys to sync for a pod update (empty for a resync with the same resourceVersion). */
export function servicesToUpdateOnPodChange(
  old: Pod,
  cur: Pod,
  services: readonly Service[],
): Set<string> {
  if (old.metadata?.resourceVersion === cur.metadata?.resourceVersion) return new Set();
  const [endpoint, membership] = podEndpointsChanged(old, cur);
  if (!endpoint && !membership) return new Set();
  const now = servicesForPod(cur, services);
  if (!membership) return now;
  const before = servicesForPod(old, services);
  if (endpoint) return new Set([...now, ...before]);
  // Only membership moved: the Services joined or left (the symmetric difference).
  const out = new Set<string>();
  for (const k of now) if (!before.has(k)) out.add(k);
  for (const k of before) if (!now.has(k)) out.add(k);
  return out;
}

/**
 * The event handlers both endpoint controllers register: a Service event queues its key, a pod
 * event the Services that select the pod (an update only those it concerns, above). `podMoved`
 * adds a pod update the membership rules ignore (the EndpointSlice controller's nodeName).
 * Returns the pod → Services trigger, for other events (a node's zone).
 */
export function queueServicesOnEvents(
  services: KindInformer<'Service'>,
  pods: KindInformer<'Pod'>,
  add: (key: string) => void,
  podMoved?: (old: Pod, cur: Pod) => boolean,
): (pod: Pod) => void {
  const enqueue = (obj: Service) => add(objectKey(obj));
  services.addEventHandler({
    onAdd: enqueue,
    onUpdate: (_, cur) => enqueue(cur),
    onDelete: (d) => enqueue(deletedObject(d)),
  });
  const inNamespace = (pod: Pod) => services.lister.listInNamespace(pod.metadata?.namespace ?? '');
  const forPod = (pod: Pod) => {
    for (const key of servicesForPod(pod, inNamespace(pod))) add(key);
  };
  pods.addEventHandler({
    onAdd: forPod,
    onUpdate: (old, cur) => {
      for (const key of servicesToUpdateOnPodChange(old, cur, inNamespace(cur))) add(key);
      if (podMoved?.(old, cur)) forPod(cur);
    },
    onDelete: (d) => forPod(deletedObject(d)),
  });
  return forPod;
}
