/**
 * Test helpers for the Deployment controller: Deployment manifests and a stand-in for the
 * ReplicaSet controller that writes RS status directly (no pods, no kubelet needed).
 *
 * @module
 */
import {
  asKind,
  type Deployment,
  type DeploymentSpec,
  type ReplicaSet,
} from '../../../api/model/index.js';
import { type ApiClient, isConflict } from '../../../client/api-client.js';
import { RESOURCES } from '../../../controller/context.js';
import type { Harness } from '../../../controller/testing/harness.js';

export const NS = 'default';

export function deploymentManifest(
  name: string,
  image: string,
  spec: Partial<DeploymentSpec> = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image }] },
      },
      ...spec,
    },
  };
}

export const deploymentRef = (name: string) => ({ ...RESOURCES.deployments, namespace: NS, name });

/** The Deployment's ReplicaSets by revision annotation. */
export async function replicaSetsOf(h: Harness, name: string): Promise<ReplicaSet[]> {
  const listed = await h.list({ ...RESOURCES.replicasets, namespace: NS }, `app=${name}`);
  const all = listed.map((rs) => asKind(rs, 'ReplicaSet'));
  const rev = (rs: ReplicaSet) =>
    Number(rs.metadata?.annotations?.['deployment.kubernetes.io/revision'] ?? 0);
  return all.sort((a, b) => rev(a) - rev(b));
}

/** Writes an RS status as its controller would: `available` of its pods ready, all observed. */
export async function setReplicaSetStatus(
  client: ApiClient,
  rs: ReplicaSet,
  replicas: number,
  available: number,
): Promise<void> {
  const status = {
    replicas,
    fullyLabeledReplicas: replicas,
    readyReplicas: available,
    availableReplicas: available,
    observedGeneration: rs.metadata?.generation ?? 1,
  };
  await client.patch(
    { ...RESOURCES.replicasets, namespace: NS, name: rs.metadata?.name ?? '' },
    { status },
    'merge',
    { subresource: 'status' },
  );
}

/** Every RS of the Deployment reports all its spec replicas created and available. */
export async function settleAll(h: Harness, name: string): Promise<void> {
  for (const rs of await replicaSetsOf(h, name)) {
    const n = rs.spec?.replicas ?? 0;
    await setReplicaSetStatus(h.client, rs, n, n);
  }
}

export async function updateDeployment(
  h: Harness,
  name: string,
  edit: (d: Deployment) => void,
): Promise<void> {
  for (;;) {
    const d = asKind(await h.client.get(deploymentRef(name)), 'Deployment');
    edit(d);
    try {
      await h.client.update(deploymentRef(name), d);
      return;
    } catch (err) {
      if (!isConflict(err)) throw err;
    }
  }
}

export function condition(d: Deployment | undefined, type: string) {
  return d?.status?.conditions?.find((c) => c.type === type);
}

/** Changes the first container's image: a template change, so a new revision. */
export function setImage(h: Harness, name: string, image: string): Promise<void> {
  return updateDeployment(h, name, (d) => withImage(d, image));
}

/** Sets the first container's image of `d`'s template in place. */
export function withImage(d: Deployment, image: string): void {
  const first = d.spec?.template.spec?.containers[0];
  if (first) first.image = image;
}
