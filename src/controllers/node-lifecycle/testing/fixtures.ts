/**
 * Fixtures for the node lifecycle controller tests: nodes that post Ready, their Leases, pods
 * bound to them, and stepping a {@link FakeClock} in small steps so that requests in flight
 * (whose time limits run on the same clock) never see a jump.
 *
 * @module
 */

import type { KubeObject } from '../../../api/object.js';
import { formatTime } from '../../../api/time.js';
import type { ApiClient } from '../../../client/api-client.js';
import { RESOURCES } from '../../../controller/context.js';
import type { FakeClock } from '../../../util/clock.js';
import type { Toleration } from '../taints.js';

/** A Lease `renewTime` (MicroTime: six fraction digits). */
function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

const readyCondition = (now: number) => ({
  type: 'Ready',
  status: 'True',
  reason: 'KubeletReady',
  message: 'kubelet is posting ready status',
  lastHeartbeatTime: formatTime(now),
  lastTransitionTime: formatTime(now),
});

/** What a kubelet does on start or return: Node Ready=True now, Lease renewed now. */
export async function kubeletHeartbeat(client: ApiClient, name: string, now: number) {
  let node: KubeObject;
  try {
    node = await client.get({ ...RESOURCES.nodes, name });
  } catch {
    node = await client.create(RESOURCES.nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
    });
  }
  await client.updateStatus(
    { ...RESOURCES.nodes, name },
    { ...node, status: { conditions: [readyCondition(now)] } },
  );
  const leaseRef = { ...RESOURCES.leases, namespace: 'kube-node-lease', name };
  const spec = { holderIdentity: name, leaseDurationSeconds: 40, renewTime: microTime(now) };
  try {
    const lease = await client.get(leaseRef);
    await client.update(leaseRef, { ...lease, spec });
  } catch {
    await client.create(leaseRef, {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name, namespace: 'kube-node-lease' },
      spec,
    });
  }
}

/** A Running, Ready pod bound to `node` (created through the API, so admission applies). */
export async function runningPod(
  client: ApiClient,
  name: string,
  node: string,
  tolerations?: Toleration[],
  now = Date.now(),
): Promise<KubeObject> {
  const ref = { ...RESOURCES.pods, namespace: 'default' };
  const pod = await client.create(ref, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      nodeName: node,
      containers: [{ name: 'c', image: 'nginx' }],
      ...(tolerations ? { tolerations } : {}),
    },
  });
  const t = formatTime(now);
  return client.updateStatus(
    { ...ref, name },
    {
      ...pod,
      status: {
        phase: 'Running',
        conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => ({
          type,
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: t,
        })),
      },
    },
  );
}

/** Steps `clock` by `ms` in 1 s steps, letting real I/O run between them. */
export async function advance(clock: FakeClock, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 1000) {
    await clock.step(Math.min(1000, left));
    await new Promise((r) => setTimeout(r, 3));
  }
}
