/**
 * Installs the celld CustomResourceDefinitions into the cluster `fleetyard up` serves, the
 * way a user would (`kubectl apply -f deploy/crds/`): through the API with the cluster's
 * token, so they are validated like any other. Creates missing ones, updates ones whose spec
 * differs (an upgraded fleetyard), then waits until each is Established so the operator's
 * first list finds the endpoints.
 *
 * @module
 */

import { asKind, type CustomResourceDefinition } from '../api/model/index.js';
import type { KubeObject } from '../api/object.js';
import { deepEqual } from '../api/object.js';
import type { Clock } from '../util/clock.js';
import type { ApiClient } from './api-client.js';
import type { ResourceType } from './resource-path.js';

const CRDS: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
};

/** How long `up` waits for its CRDs to be served; the CRD controller takes milliseconds. */
const ESTABLISH_TIMEOUT_MS = 10_000;
const POLL_MS = 20;

/**
 * One list, then a create or an update per CRD: a Get of a missing CRD would answer 404, and
 * the e2e tests hold every error answer in the server's log against their expectations.
 */
async function ensureCrd(
  client: ApiClient,
  crd: KubeObject,
  live: KubeObject | undefined,
): Promise<void> {
  const name = crd.metadata?.name ?? '';
  if (live === undefined) {
    await client.create(CRDS, crd);
    return;
  }
  if (deepEqual(live.spec, crd.spec)) return;
  await client.update(
    { ...CRDS, name },
    {
      ...crd,
      metadata: {
        ...live.metadata,
        ...crd.metadata,
        resourceVersion: live.metadata?.resourceVersion,
      },
    },
  );
}

/** Whether the CRD's `Established` condition is `True` (its first one, as upstream reads it). */
function isEstablished(crd: CustomResourceDefinition): boolean {
  return crd.status?.conditions?.find((c) => c.type === 'Established')?.status === 'True';
}

export async function installCrds(
  client: ApiClient,
  crds: readonly KubeObject[],
  clock: Clock,
): Promise<void> {
  const existing = (await client.list(CRDS)).items;
  for (const crd of crds) {
    const live = existing.find((c) => c.metadata?.name === crd.metadata?.name);
    await ensureCrd(client, crd, live);
  }
  const deadline = clock.now() + ESTABLISH_TIMEOUT_MS;
  for (const crd of crds) {
    const name = crd.metadata?.name ?? '';
    const established = async (): Promise<boolean> =>
      isEstablished(asKind(await client.get({ ...CRDS, name }), 'CustomResourceDefinition'));
    while (!(await established())) {
      if (clock.now() > deadline)
        throw new Error(
          `CustomResourceDefinition ${name} is not Established after ${ESTABLISH_TIMEOUT_MS} ms`,
        );
      await clock.sleep(POLL_MS);
    }
  }
}
