/**
 * Object builders for the data layer's unit tests (not part of the bundle: only tests import it).
 *
 * @module
 */
import type { Change, ChangeType, JsonObject, KubeObject, OwnerReference } from './json.js';

let seq = 0;

export function change(
  type: ChangeType,
  group: string,
  resource: string,
  object: KubeObject,
  time = '2026-01-01T00:00:00.000Z',
  at = ++seq,
): Change {
  return { type, seq: at, time, group, resource, object };
}

interface Meta {
  readonly namespace?: string;
  readonly uid?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
  readonly ownerReferences?: OwnerReference[];
  readonly deletionTimestamp?: string;
}

export function obj(
  kind: string,
  name: string,
  meta: Meta = {},
  spec?: JsonObject,
  status?: JsonObject,
): KubeObject {
  return {
    apiVersion: 'v1',
    kind,
    metadata: { name, uid: meta.uid ?? `uid-${kind}-${meta.namespace ?? ''}-${name}`, ...meta },
    ...(spec === undefined ? {} : { spec }),
    ...(status === undefined ? {} : { status }),
  };
}

export function node(
  name: string,
  opts: { zone?: string; ready?: boolean; down?: boolean; unschedulable?: boolean } = {},
): KubeObject {
  return obj(
    'Node',
    name,
    {
      labels: {
        'kubernetes.io/hostname': name,
        ...(opts.zone === undefined ? {} : { 'topology.kubernetes.io/zone': opts.zone }),
      },
      ...(opts.down === true ? { annotations: { 'sim.fleetyard.dev/state': 'down' } } : {}),
    },
    opts.unschedulable === true ? { unschedulable: true } : {},
    { conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
  );
}

export function pod(
  ns: string,
  name: string,
  opts: {
    node?: string;
    phase?: string;
    ready?: boolean;
    owner?: OwnerReference;
    labels?: Record<string, string>;
  } = {},
): KubeObject {
  return obj(
    'Pod',
    name,
    {
      namespace: ns,
      ...(opts.owner === undefined ? {} : { ownerReferences: [opts.owner] }),
      ...(opts.labels === undefined ? {} : { labels: opts.labels }),
    },
    opts.node === undefined ? {} : { nodeName: opts.node },
    {
      phase: opts.phase ?? 'Running',
      conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
    },
  );
}

export function pv(
  name: string,
  opts: {
    zoneKey?: string;
    zone?: string;
    nodeKey?: string;
    node?: string;
    claim?: string;
    size?: string;
    phase?: string;
  },
): KubeObject {
  const exprs: JsonObject[] = [];
  if (opts.zone !== undefined)
    exprs.push({
      key: opts.zoneKey ?? 'topology.kubernetes.io/zone',
      operator: 'In',
      values: [opts.zone],
    });
  if (opts.node !== undefined)
    exprs.push({
      key: opts.nodeKey ?? 'kubernetes.io/hostname',
      operator: 'In',
      values: [opts.node],
    });
  const [ns, claim] = (opts.claim ?? '/').split('/');
  return obj(
    'PersistentVolume',
    name,
    {},
    {
      capacity: { storage: opts.size ?? '1Gi' },
      ...(exprs.length === 0
        ? {}
        : { nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: exprs }] } } }),
      ...(opts.claim === undefined ? {} : { claimRef: { namespace: ns ?? '', name: claim ?? '' } }),
    },
    { phase: opts.phase ?? 'Bound' },
  );
}
