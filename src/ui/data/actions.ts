/**
 * The dashboard's actions, as the same API writes the CLI makes (`fleetyard chaos`,
 * `kubectl scale/drain`, src/sim/chaos/chaos.ts and storage-chaos.ts):
 *
 * | action | write |
 * |---|---|
 * | node-down / node-up | merge patch Node annotation `sim.fleetyard.dev/state` = down / up |
 * | cordon / uncordon | merge patch Node `spec.unschedulable` true / null |
 * | drain | cordon, then a policy/v1 Eviction for each pod on the node not owned by a DaemonSet |
 * | lose-volume | delete the claim's PV, then remove its finalizers |
 * | fail-zone / restore-zone | add / remove the zone in `failing-zones` of ConfigMap kube-system/fleetyard-storage |
 * | crash | Pod annotation `sim.fleetyard.dev/exit-code` = "1" |
 * | break-readiness / restore-readiness | Pod annotation `sim.fleetyard.dev/ready` = "false" / removed |
 * | scale | merge patch of the `/scale` subresource `spec.replicas` |
 * | restart-fleet | CelldFleet `spec.maintenance.restartToken` = now (ISO) |
 *
 * @module
 */
import { type Api, ApiError, resourcePath, versionOf } from './api.js';
import { STORAGE_FAULTS } from './cluster-map.js';
import { isJsonObject, type KubeObject, str } from './json.js';
import type { ObjectStore } from './store.js';

export type ActionName =
  | 'node-down'
  | 'node-up'
  | 'cordon'
  | 'uncordon'
  | 'drain'
  | 'lose-volume'
  | 'fail-zone'
  | 'restore-zone'
  | 'crash'
  | 'break-readiness'
  | 'restore-readiness'
  | 'scale'
  | 'restart-fleet';

export type ActionRequest =
  | {
      readonly action: 'node-down' | 'node-up' | 'cordon' | 'uncordon' | 'drain';
      readonly node: string;
    }
  | { readonly action: 'fail-zone' | 'restore-zone'; readonly zone: string }
  | {
      readonly action: 'lose-volume' | 'crash' | 'break-readiness' | 'restore-readiness';
      readonly namespace: string;
      readonly name: string;
    }
  | {
      readonly action: 'scale';
      readonly group: string;
      readonly resource: string;
      readonly namespace: string;
      readonly name: string;
      readonly replicas: number;
    }
  | { readonly action: 'restart-fleet'; readonly namespace: string; readonly name: string };

const nodePath = (name: string): string => resourcePath('', 'v1', 'nodes', undefined, name);
const podPath = (ns: string, name: string): string => resourcePath('', 'v1', 'pods', ns, name);
const annotate = (key: string, value: string | null) => ({
  metadata: { annotations: { [key]: value } },
});

const SCALE_VERSION: Readonly<Record<string, string>> = {
  deployments: 'v1',
  replicasets: 'v1',
  statefulsets: 'v1',
  celldfleets: 'v1alpha1',
};

/** Pods a drain evicts: on the node, not owned by a DaemonSet, not already terminating. */
export function podsToEvict(store: ObjectStore, node: string): KubeObject[] {
  return store
    .list('', 'pods')
    .filter(
      (p) =>
        str(p, 'spec', 'nodeName') === node &&
        p.metadata.deletionTimestamp === undefined &&
        !(p.metadata.ownerReferences ?? []).some(
          (r) => r.kind === 'DaemonSet' && r.controller === true,
        ),
    );
}

/** Adds or removes `zone` in a comma list, sorted: the ConfigMap value storage-chaos.ts writes. */
export function editList(list: string | undefined, value: string, present: boolean): string {
  const items = new Set(
    (list ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  );
  if (present) items.add(value);
  else items.delete(value);
  return [...items].sort().join(',');
}

export class Actions {
  private readonly api: Api;
  private readonly store: () => ObjectStore;

  constructor(api: Api, store: () => ObjectStore) {
    this.api = api;
    this.store = store;
  }

  /** Runs one action; resolves to a short description, rejects with the server's message. */
  async run(req: ActionRequest): Promise<string> {
    const api = this.api;
    switch (req.action) {
      case 'node-down':
      case 'node-up':
        await api.mergePatch(
          nodePath(req.node),
          annotate('sim.fleetyard.dev/state', req.action === 'node-down' ? 'down' : 'up'),
        );
        return `node ${req.node} ${req.action === 'node-down' ? 'down' : 'up'}`;
      case 'cordon':
      case 'uncordon':
        await api.mergePatch(nodePath(req.node), {
          spec: { unschedulable: req.action === 'cordon' ? true : null },
        });
        return `node ${req.node} ${req.action}ed`;
      case 'drain':
        return this.drain(req.node);
      case 'crash':
        await api.mergePatch(
          podPath(req.namespace, req.name),
          annotate('sim.fleetyard.dev/exit-code', '1'),
        );
        return `pod ${req.namespace}/${req.name} crashed`;
      case 'break-readiness':
      case 'restore-readiness':
        await api.mergePatch(
          podPath(req.namespace, req.name),
          annotate('sim.fleetyard.dev/ready', req.action === 'break-readiness' ? 'false' : null),
        );
        return `pod ${req.namespace}/${req.name} readiness ${req.action === 'break-readiness' ? 'broken' : 'restored'}`;
      case 'lose-volume':
        return this.loseVolume(req.namespace, req.name);
      case 'fail-zone':
      case 'restore-zone':
        return this.editFailingZones(req.zone, req.action === 'fail-zone');
      case 'scale': {
        const version = versionOf(
          this.store().get(req.group, req.resource, req.namespace, req.name),
          SCALE_VERSION[req.resource] ?? 'v1',
        );
        await api.mergePatch(
          resourcePath(req.group, version, req.resource, req.namespace, req.name, 'scale'),
          {
            spec: { replicas: req.replicas },
          },
        );
        return `${req.resource} ${req.namespace}/${req.name} scaled to ${req.replicas}`;
      }
      case 'restart-fleet':
        await api.mergePatch(
          resourcePath('celld.fleetyard.dev', 'v1alpha1', 'celldfleets', req.namespace, req.name),
          {
            spec: { maintenance: { restartToken: new Date().toISOString() } },
          },
        );
        return `fleet ${req.namespace}/${req.name} restarting`;
    }
  }

  /** The faults ConfigMap from the server, or undefined when it does not exist. */
  private async readFaults(): Promise<unknown> {
    try {
      return await this.api.get(FAULTS_PATH);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  }

  /** Creates the faults ConfigMap, or replaces `current` (a 409 when it changed meanwhile). */
  private async writeFaults(current: unknown, data: Record<string, string>): Promise<void> {
    if (current === undefined) {
      await this.api.post(resourcePath('', 'v1', 'configmaps', STORAGE_FAULTS.namespace), {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: STORAGE_FAULTS.name, namespace: STORAGE_FAULTS.namespace },
        data,
      });
    } else {
      await this.api.put(FAULTS_PATH, { ...(isJsonObject(current) ? current : {}), data });
    }
  }

  private async drain(node: string): Promise<string> {
    await this.api.mergePatch(nodePath(node), { spec: { unschedulable: true } });
    const pods = podsToEvict(this.store(), node);
    const failures: string[] = [];
    for (const pod of pods) {
      const ns = pod.metadata.namespace ?? 'default';
      try {
        await this.api.post(`${podPath(ns, pod.metadata.name)}/eviction`, {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: pod.metadata.name, namespace: ns },
        });
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) continue;
        failures.push(
          `${ns}/${pod.metadata.name}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    if (failures.length > 0) {
      throw new Error(
        `node ${node} cordoned; ${failures.length} of ${pods.length} evictions failed: ${failures.join('; ')}`,
      );
    }
    return `node ${node} drained (${pods.length} pods evicted)`;
  }

  private async loseVolume(namespace: string, claim: string): Promise<string> {
    const pvc = await this.api.get(
      resourcePath('', 'v1', 'persistentvolumeclaims', namespace, claim),
    );
    const volume = str(pvc, 'spec', 'volumeName');
    if (volume === undefined || volume === '') {
      throw new Error(`persistentvolumeclaim "${claim}" is not bound to a volume`);
    }
    const pvPath = resourcePath('', 'v1', 'persistentvolumes', undefined, volume);
    // Delete first, then strip the finalizers (storage-chaos.ts: the other order races with
    // pv-protection re-adding its finalizer).
    try {
      await this.api.delete(pvPath);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404)
        return `persistentvolume/${volume} already gone`;
      throw err;
    }
    try {
      await this.api.mergePatch(pvPath, { metadata: { finalizers: null } });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 404)) throw err;
    }
    return `persistentvolume/${volume} deleted (claim ${namespace}/${claim} lost its volume)`;
  }

  private async editFailingZones(zone: string, failing: boolean): Promise<string> {
    // Read-modify-write under the resourceVersion; 5 tries, as storage-chaos.ts.
    // The first try starts from the stream's copy (no GET, and no 404 logged in the browser's
    // console when the ConfigMap does not exist yet); a conflict re-reads from the server.
    for (let attempt = 0; attempt < 5; attempt++) {
      const current =
        attempt === 0
          ? this.store().get('', 'configmaps', STORAGE_FAULTS.namespace, STORAGE_FAULTS.name)
          : await this.readFaults();
      const data = stringData(current);
      const next = editList(data['failing-zones'], zone, failing);
      if ((data['failing-zones'] ?? '') === next && current !== undefined) {
        return `zone ${zone} unchanged`;
      }
      data['failing-zones'] = next;
      try {
        await this.writeFaults(current, data);
        return `zone ${zone} storage ${failing ? 'failing' : 'restored'}`;
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 409)) throw err;
      }
    }
    throw new Error(`configmap/${STORAGE_FAULTS.name}: too many concurrent changes, try again`);
  }
}

const FAULTS_PATH = resourcePath(
  '',
  'v1',
  'configmaps',
  STORAGE_FAULTS.namespace,
  STORAGE_FAULTS.name,
);

/** The string values of an object's `data`. */
function stringData(o: unknown): Record<string, string> {
  const data: Record<string, string> = {};
  const raw = isJsonObject(o) ? o.data : undefined;
  if (isJsonObject(raw)) {
    for (const [k, v] of Object.entries(raw)) if (typeof v === 'string') data[k] = v;
  }
  return data;
}
