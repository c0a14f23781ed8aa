/**
 * The objects a fleet needs before its workload (docs/design/operator.md §2.5): the ServiceAccount (when the fleet
 * names none), the Services `<f>` and `<f>-peers`, and the PodDisruptionBudget. The
 * NetworkPolicy has its own file.
 *
 * @module
 */

import type { PodDisruptionBudget, Service, ServiceAccount } from '../../api/model/index.js';
import { APPLICATION_PORT, PEER_PORT } from './env.js';
import type { FleetSpecView } from './fleet-view.js';
import { resolveFleet } from './fleet-view.js';
import { childMetadata, peersServiceName, selectorLabels } from './metadata.js';

/** The ServiceAccount the operator creates, or undefined when the fleet names its own. */
export function renderServiceAccount(fleet: FleetSpecView): ServiceAccount | undefined {
  if (fleet.spec.serviceAccountName !== undefined) return undefined;
  const resolved = resolveFleet(fleet);
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: childMetadata(resolved, resolved.serviceAccountName),
    automountServiceAccountToken: false,
  };
}

/**
 * `<f>`: the application endpoint (ClusterIP, 8080). `<f>-peers`: headless, for the members'
 * stable DNS names; it publishes not-ready addresses because a recovering member must reach
 * its peers' retained disks before it can become Ready, and declares `appProtocol: tcp` so
 * a mesh does not sniff the peer protocol as HTTP (Go issue #59).
 */
export function renderServices(fleet: FleetSpecView): Service[] {
  const resolved = resolveFleet(fleet);
  const selector = selectorLabels(resolved);
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: childMetadata(resolved, resolved.name),
      spec: {
        type: 'ClusterIP',
        selector,
        ports: [
          {
            name: 'application',
            port: APPLICATION_PORT,
            targetPort: 'application',
            protocol: 'TCP',
          },
        ],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: childMetadata(resolved, peersServiceName(resolved)),
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector,
        ports: [
          {
            name: 'peer',
            port: PEER_PORT,
            targetPort: 'peer',
            protocol: 'TCP',
            appProtocol: 'tcp',
          },
        ],
      },
    },
  ];
}

/** One voluntary disruption at a time; an unready member already uses the budget. */
export function renderPodDisruptionBudget(fleet: FleetSpecView): PodDisruptionBudget {
  const resolved = resolveFleet(fleet);
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: childMetadata(resolved, resolved.name),
    spec: { maxUnavailable: 1, selector: { matchLabels: selectorLabels(resolved) } },
  };
}
