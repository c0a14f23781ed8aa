/**
 * The soak group's load on the cluster: a churning Deployment and celld fleets hit by
 * failures (the same API writes `fleetyard chaos` makes), so the store sees creates, updates
 * and deletes of many kinds for the whole soak, not only Lease renewals.
 *
 * @module
 */
import { createDeployment, DEPLOYMENTS, setImage } from './cluster-ops.js';
import type { ApiClient, Fleetyard } from './fleetyard.js';
import {
  createFleets,
  createServiceAccount,
  fleetName,
  loseVolume,
  mergePatch,
} from './operator-ops.js';

export interface SoakSizes {
  readonly nodes: number;
  /** The Deployment scales between this and half of it. */
  readonly replicas: number;
  readonly fleets: number;
  readonly members: number;
}

const DEPLOYMENT = 'soak-web';
const IMAGE = 'registry.example.com/soak-web';
const PODS = '/api/v1/namespaces/default/pods';

/** Creates the ledger's namespace, the Deployment and the fleets (not waiting for them). */
export async function startWorkload(
  _fy: Fleetyard,
  client: ApiClient,
  s: SoakSizes,
  ledgerNamespace: string,
): Promise<void> {
  const ns = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: ledgerNamespace },
  });
  const res = await client.request('POST', '/api/v1/namespaces', ns);
  if (res.status !== 201) throw new Error(`create namespace: HTTP ${res.status}`);
  await createDeployment(client, DEPLOYMENT, s.replicas, `${IMAGE}:0`);
  await createServiceAccount(client);
  const names = Array.from({ length: s.fleets }, (_, i) => fleetName(i));
  await createFleets(client, names, s.members);
}

/** One step of churn: a rolling update on odd steps, a scale (R ↔ R/2) on even ones. */
export async function workloadStep(
  _fy: Fleetyard,
  client: ApiClient,
  s: SoakSizes,
  step: number,
): Promise<void> {
  if (step % 2 === 1) {
    await setImage(client, DEPLOYMENT, `${IMAGE}:${step}`);
    return;
  }
  const replicas = step % 4 === 0 ? s.replicas : Math.max(1, Math.floor(s.replicas / 2));
  await scale(client, replicas);
}

async function scale(client: ApiClient, replicas: number): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const d = await client.getJson<{ spec: { replicas: number } }>(`${DEPLOYMENTS}/${DEPLOYMENT}`);
    d.spec.replicas = replicas;
    const res = await client.request('PUT', `${DEPLOYMENTS}/${DEPLOYMENT}`, JSON.stringify(d));
    if (res.status === 200) return;
    if (res.status !== 409) throw new Error(`scale ${DEPLOYMENT}: HTTP ${res.status}`);
  }
  throw new Error(`scale ${DEPLOYMENT}: 10 conflicts in a row`);
}

/**
 * The `n`th failure: a member's volume lost (odd `n`) or its containers crashed (even `n`),
 * on fleet `n mod fleets`, ordinal `n mod members`. A member that is not there right now
 * (being replaced) is skipped and said so.
 */
export async function soakFailure(
  fy: Fleetyard,
  client: ApiClient,
  s: SoakSizes,
  n: number,
): Promise<string> {
  const fleet = fleetName(n % s.fleets);
  const ordinal = n % s.members;
  try {
    if (n % 2 === 1) {
      const claim = `data-${fleet}-${ordinal}`;
      await loseVolume(fy, client, claim);
      return `chaos lose-volume ${claim}`;
    }
    const pod = `${fleet}-${ordinal}`;
    const res = await mergePatch(fy, `${PODS}/${pod}`, {
      metadata: { annotations: { 'sim.fleetyard.dev/exit-code': '1' } },
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return `chaos crash ${pod}`;
  } catch (err) {
    return `failure ${n} skipped (${err instanceof Error ? err.message.slice(0, 120) : String(err)})`;
  }
}
