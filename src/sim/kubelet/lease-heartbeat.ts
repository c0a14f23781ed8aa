/**
 * The node Lease heartbeat, after upstream `pkg/kubelet/nodelease` (component-helpers
 * `leasecontroller`): `kube-node-lease/<node>` held by the node, `leaseDurationSeconds` 40,
 * renewed every 10 s (a quarter of the duration) by updating `spec.renewTime` (a MicroTime),
 * owned by its Node so it goes with it. The controller keeps the lease it last wrote and
 * updates that; on a conflict or a missing lease it reads (or creates) it and tries again.
 *
 * @module
 */

import { asKind, type Lease } from '../../api/model/index.js';
import { formatMicroTime } from '../../api/time.js';
import {
  type ApiClient,
  isAlreadyExists,
  isConflict,
  isNotFound,
} from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

export interface LeaseOwner {
  name: string;
  uid?: string;
}

export function nodeLease(node: LeaseOwner, durationSeconds: number, now: number): Lease {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: node.name,
      namespace: NODE_LEASE_NAMESPACE,
      ...(node.uid
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.name, uid: node.uid }] }
        : {}),
    },
    spec: {
      holderIdentity: node.name,
      leaseDurationSeconds: durationSeconds,
      renewTime: formatMicroTime(now),
    },
  };
}

/** Renews one node's Lease; keeps the last written copy between renewals. */
export class LeaseHeartbeat {
  readonly #client: ApiClient;
  readonly #durationSeconds: number;
  #latest: Lease | undefined;

  constructor(client: ApiClient, durationSeconds: number) {
    this.#client = client;
    this.#durationSeconds = durationSeconds;
  }

  /** The lease as last written. */
  get latest(): Lease | undefined {
    return this.#latest;
  }

  /** Renews (or creates) the lease at `now`; two attempts, as a conflict means a stale copy. */
  async renew(node: LeaseOwner, now: number, signal?: AbortSignal): Promise<void> {
    const ref = { ...RESOURCES.leases, namespace: NODE_LEASE_NAMESPACE, name: node.name };
    for (let attempt = 0; ; attempt++) {
      try {
        this.#latest ??= await this.#ensure(node, now, signal);
        const desired = nodeLease(node, this.#durationSeconds, now);
        const spec = { ...this.#latest.spec, ...desired.spec };
        const meta = this.#latest.metadata ?? {};
        const next = {
          ...this.#latest,
          metadata: {
            ...meta,
            ownerReferences: meta.ownerReferences ?? desired.metadata?.ownerReferences,
          },
          spec,
        };
        this.#latest = asKind(await this.#client.update(ref, next, { signal }), 'Lease');
        return;
      } catch (err) {
        this.#latest = undefined;
        if (attempt >= 1 || !(isConflict(err) || isNotFound(err))) throw err;
      }
    }
  }

  async #ensure(node: LeaseOwner, now: number, signal?: AbortSignal): Promise<Lease> {
    const ref = { ...RESOURCES.leases, namespace: NODE_LEASE_NAMESPACE, name: node.name };
    try {
      return asKind(await this.#client.get(ref, { signal }), 'Lease');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    try {
      const lease = nodeLease(node, this.#durationSeconds, now);
      const created = await this.#client.create(
        { ...RESOURCES.leases, namespace: NODE_LEASE_NAMESPACE },
        lease,
        { signal },
      );
      return asKind(created, 'Lease');
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      return asKind(await this.#client.get(ref, { signal }), 'Lease');
    }
  }
}
