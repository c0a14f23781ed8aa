/**
 * The endpoints planner (upstream `endpoints_controller.go` `syncService`, as pure functions):
 * which addresses and ports a Service's Endpoints should list, whether the stored Endpoints
 * already say so, and the object to write when they do not.
 *
 * A pod selected by the Service is listed when it is not terminal, has an IP of the Service's
 * family and is not terminating (terminating pods stay when `publishNotReadyAddresses` is
 * set). It is ready when its Ready condition is True, or always when the Service publishes
 * not-ready addresses. Each service port maps through `targetPort` (a number, or a container
 * port's name); a pod without the named port is left out of that port only. A headless Service
 * without ports still lists its pods; a Service with a cluster IP and no ports lists nothing.
 *
 * @module
 */
import type {
  EndpointAddress,
  EndpointSubset,
  Endpoints,
  Pod,
  Service,
} from '../../api/model/index.js';
import { deepEqual } from '../../api/object.js';
import { isPodReady } from '../../api/policy/pod-conditions.js';
import { formatTime } from '../../api/time.js';
import {
  endpointPort,
  findPort,
  podAddress,
  selectsPod,
  shouldPodBeInEndpoints,
} from './pod-address.js';
import { countAddresses, repackSubsets, sortSubsets, truncateSubsets } from './repack.js';
import {
  HEADLESS_LABEL,
  MAX_CAPACITY,
  OVER_CAPACITY_ANNOTATION,
  TRIGGER_TIME_ANNOTATION,
  TRUNCATED,
} from './types.js';

/** What a Service's Endpoints should hold. */
export interface DesiredEndpoints {
  /** Repacked, sorted and (over {@link MAX_CAPACITY}) truncated subsets. */
  readonly subsets: EndpointSubset[];
  /** The Service's labels, plus `service.kubernetes.io/headless` for a headless Service. */
  readonly labels: Readonly<Record<string, string>>;
  /** True when addresses were cut to {@link MAX_CAPACITY}. */
  readonly overCapacity: boolean;
  /** Addresses before truncation, for logs. */
  readonly ready: number;
  readonly notReady: number;
}

/**
 * Whether the endpoints controller manages this Service's Endpoints: it has a (non-empty)
 * selector and is not an ExternalName Service. Others get their Endpoints out of band.
 */
export function managesEndpoints(service: Service): boolean {
  if (service.spec?.type === 'ExternalName') return false;
  return Object.keys(service.spec?.selector ?? {}).length > 0;
}

/** Upstream `IsServiceIPSet`: a cluster IP other than `None` and `""`. */
export function isHeadless(service: Service): boolean {
  const ip = service.spec?.clusterIP ?? '';
  return ip === '' || ip === 'None';
}

/**
 * The desired Endpoints of `service` from `pods` (any pods: those the Service does not select
 * are skipped), or undefined when the controller leaves this Service alone
 * ({@link managesEndpoints}).
 */
export function desiredEndpoints(
  service: Service,
  pods: readonly Pod[],
): DesiredEndpoints | undefined {
  if (!managesEndpoints(service)) return undefined;
  const packed = repackSubsets(podSubsets(service, pods));
  const { ready, notReady } = countAddresses(packed);
  const truncated = truncateSubsets(packed, MAX_CAPACITY);
  const labels: Record<string, string> = { ...(service.metadata?.labels ?? {}) };
  if (isHeadless(service)) labels[HEADLESS_LABEL] = '';
  else delete labels[HEADLESS_LABEL];
  return {
    subsets: truncated === undefined ? packed : sortSubsets(truncated),
    labels,
    overCapacity: truncated !== undefined,
    ready,
    notReady,
  };
}

/** One unpacked subset per selected pod and Service port it serves (one per pod when headless without ports). */
function podSubsets(service: Service, pods: readonly Pod[]): EndpointSubset[] {
  const spec = service.spec;
  const publishNotReady = spec?.publishNotReadyAddresses === true;
  const servicePorts = spec?.ports ?? [];
  const headlessNoPorts = servicePorts.length === 0 && spec?.clusterIP === 'None';
  const parts: EndpointSubset[] = [];
  for (const pod of pods) {
    if (!selectsPod(service, pod) || !shouldPodBeInEndpoints(pod, publishNotReady)) continue;
    const address = podAddress(service, pod);
    if (address === undefined) continue;
    const ready = publishNotReady || isPodReady(pod);
    const entry = (ports: EndpointSubset['ports']): EndpointSubset =>
      ready ? { addresses: [address], ports } : { notReadyAddresses: [address], ports };
    if (headlessNoPorts) parts.push(entry([]));
    for (const sp of servicePorts) {
      const num = findPort(pod, sp);
      if (num !== undefined) parts.push(entry([endpointPort(sp, num)]));
    }
  }
  return parts;
}

/** An address without the fields comparison ignores (`targetRef.resourceVersion`). */
function comparable(a: EndpointAddress): EndpointAddress {
  if (a.targetRef?.resourceVersion === undefined) return a;
  const { resourceVersion: _, ...targetRef } = a.targetRef;
  return { ...a, targetRef };
}

/** Subsets in canonical form: repacked, sorted, pods' resourceVersions dropped. */
export function canonicalSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
  return repackSubsets(
    subsets.map((s) => ({
      addresses: (s.addresses ?? []).map(comparable),
      notReadyAddresses: (s.notReadyAddresses ?? []).map(comparable),
      ports: (s.ports ?? []).map((p) => ({ ...p, protocol: p.protocol ?? 'TCP' })),
    })),
  );
}

function storedSubsets(endpoints: Endpoints): EndpointSubset[] {
  return endpoints.subsets ?? [];
}

/**
 * Whether `current` (the stored Endpoints, or undefined) must be written to match `desired`:
 * it is missing, its subsets differ (ignoring order, grouping and pods' resourceVersions), its
 * labels differ, or its over-capacity annotation is wrong. The trigger-time annotation alone
 * never causes a write, as upstream.
 */
export function changed(current: Endpoints | undefined, desired: DesiredEndpoints): boolean {
  if (current === undefined) return true;
  if (!deepEqual(canonicalSubsets(storedSubsets(current)), canonicalSubsets(desired.subsets)))
    return true;
  if (!deepEqual(current.metadata?.labels ?? {}, desired.labels)) return true;
  const annotations = current.metadata?.annotations ?? {};
  return (annotations[OVER_CAPACITY_ANNOTATION] === TRUNCATED) !== desired.overCapacity;
}

/**
 * The Endpoints to create or update: `current` (or a new object named after the Service) with
 * the desired subsets and labels, the over-capacity annotation set or removed, and the
 * trigger-time annotation set to `triggerTime` (epoch ms) or removed when it is undefined.
 */
export function endpointsToWrite(
  service: Service,
  current: Endpoints | undefined,
  desired: DesiredEndpoints,
  triggerTime: number | undefined,
): Endpoints {
  const meta = current?.metadata ?? {
    name: service.metadata?.name ?? '',
    namespace: service.metadata?.namespace ?? '',
  };
  const annotations: Record<string, string> = { ...(meta.annotations ?? {}) };
  if (triggerTime === undefined) delete annotations[TRIGGER_TIME_ANNOTATION];
  else annotations[TRIGGER_TIME_ANNOTATION] = formatTime(triggerTime);
  if (desired.overCapacity) annotations[OVER_CAPACITY_ANNOTATION] = TRUNCATED;
  else delete annotations[OVER_CAPACITY_ANNOTATION];
  const { subsets: _, ...rest } = current ?? {};
  return {
    ...rest,
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { ...meta, labels: { ...desired.labels }, annotations },
    ...(desired.subsets.length > 0 ? { subsets: desired.subsets } : {}),
  };
}
