/**
 * The fleet's workload (issue 6 scope item 2, docs/design/operator-api.md §3):
 * - PersistentFleet → StatefulSet on `<f>-peers`, Parallel, RollingUpdate partition 0,
 *   claim retention Retain/Retain, claim template `data` ReadWriteOncePod;
 * - Bucket / Deployment → Deployment, RollingUpdate maxUnavailable 1 maxSurge 0, emptyDir;
 * - Bucket / Ordered → the same StatefulSet shape without claims, zone-gated Pods.
 *
 * @module
 */

import type {
  Deployment,
  PersistentVolumeClaimTemplate,
  StatefulSet,
  StatefulSetSpec,
} from '../../api/model/index.js';
import type { FleetSpecView, ResolvedFleet } from './fleet-view.js';
import { resolveFleet } from './fleet-view.js';
import { childMetadata, operatorLabels, peersServiceName, selectorLabels } from './metadata.js';
import { DATA_VOLUME, renderPodTemplateResolved } from './pod-template.js';

function statefulSet(fleet: ResolvedFleet, withClaims: boolean): StatefulSet {
  const spec: StatefulSetSpec = {
    replicas: fleet.replicas,
    selector: { matchLabels: selectorLabels(fleet) },
    serviceName: peersServiceName(fleet),
    // Members do not depend on each other to start; Parallel lets a full-stop return at once.
    podManagementPolicy: 'Parallel',
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
    // The StatefulSet controller never removes a disk: only the operator does, and only on
    // fleet deletion or when replacing a member that cannot come back.
    persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    template: renderPodTemplateResolved(fleet),
  };
  if (withClaims) {
    const storageClassName = fleet.spec.storage.storageClassName;
    const claim: PersistentVolumeClaimTemplate = {
      metadata: { name: DATA_VOLUME, labels: operatorLabels(fleet) },
      spec: {
        // One writer per disk, enforced by the kubelet, not by celld's lease alone.
        accessModes: ['ReadWriteOncePod'],
        ...(storageClassName === undefined ? {} : { storageClassName }),
        resources: { requests: { storage: `${fleet.sizeGiB}Gi` } },
      },
    };
    spec.volumeClaimTemplates = [claim];
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: childMetadata(fleet, fleet.name),
    spec,
  };
}

/** PersistentFleet's StatefulSet. */
export function renderStatefulSet(fleet: FleetSpecView): StatefulSet {
  return statefulSet(resolveFleet(fleet), true);
}

/** Bucket / Ordered: a claim-less StatefulSet whose Pods wait for the operator's zone pin. */
export function renderOrderedStatefulSet(fleet: FleetSpecView): StatefulSet {
  return statefulSet(resolveFleet(fleet), false);
}

/** Bucket / Deployment. */
export function renderDeployment(fleet: FleetSpecView): Deployment {
  const resolved = resolveFleet(fleet);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMetadata(resolved, resolved.name),
    spec: {
      replicas: resolved.replicas,
      selector: { matchLabels: selectorLabels(resolved) },
      // maxSurge 0: a surge member would join the fleet only to leave it again; one
      // unavailable member at a time matches the PDB.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: renderPodTemplateResolved(resolved),
    },
  };
}

/** The workload of the fleet's profile. */
export function renderWorkload(fleet: FleetSpecView): StatefulSet | Deployment {
  switch (resolveFleet(fleet).workload) {
    case 'PersistentFleet':
      return renderStatefulSet(fleet);
    case 'Ordered':
      return renderOrderedStatefulSet(fleet);
    case 'Deployment':
      return renderDeployment(fleet);
  }
}
