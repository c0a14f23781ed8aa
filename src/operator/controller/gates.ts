/**
 * The checks a fleet passes before the operator writes anything for it (docs/design/operator.md §2.3), in
 * order: maintenance pause, the network-isolation attestation, the ServiceAccount, and for a
 * PersistentFleet the StorageClass contract. Pure: observation in, the first failing gate's
 * {@link Outcome} out (undefined when every gate passes).
 *
 * @module
 */
import type { CelldFleet } from '../../api/model/index.js';
import { storageClassContract } from '../render/storage-class.js';
import type { FleetObservation } from './observe.js';
import type { Outcome } from './outcome.js';
import { outcome } from './outcome.js';

export interface GateOptions {
  readonly networkPolicyEnforced: boolean;
  readonly localTest: boolean;
}

export function isPaused(fleet: CelldFleet): boolean {
  return fleet.spec.maintenance?.paused === true;
}

export function checkGates(obs: FleetObservation, options: GateOptions): Outcome | undefined {
  const fleet = obs.fleet;
  const spec = fleet.spec;
  const namespace = fleet.metadata?.namespace ?? '';
  if (isPaused(fleet)) {
    return {
      kind: 'paused',
      reason: 'MaintenancePaused',
      message:
        'Workload changes suspended: maintenance.paused is set, so nothing is written and no member is healed',
    };
  }
  if (!options.networkPolicyEnforced) {
    return outcome.blocked(
      'IsolationUnverified',
      'The operator does not know that this cluster enforces NetworkPolicy, so nothing is provisioned: start it with --network-policy-enforced once your CNI enforces NetworkPolicy',
    );
  }
  const account = spec.serviceAccountName;
  if (account && obs.serviceAccount === undefined) {
    return outcome.blocked(
      'ServiceAccountMissing',
      `ServiceAccount "${account}" was not found in namespace "${namespace}"; create it with the bucket's permissions`,
    );
  }
  if (spec.profile === 'PersistentFleet') {
    const verdict = storageClassContract(obs.storageClass, {
      localTesting: options.localTest,
      ...(spec.storage?.storageClassName ? { className: spec.storage.storageClassName } : {}),
    });
    if (!verdict.ok) return outcome.blocked(verdict.reason, verdict.message);
  }
  return undefined;
}
