/**
 * Which controllers `fleetyard up` runs, and the `--controllers` selection in
 * kube-controller-manager's syntax: `*` (every controller on by default), a name to enable,
 * `-name` to disable; e.g. `--controllers=*,-garbage-collector`. The simulated nodes
 * (`kubelet`) and the scheduler (`default-scheduler`) are selected the same way, so
 * `--controllers=-kubelet` gives a cluster without nodes.
 *
 * @module
 */

import { legacyTokenGeneratorFromDir } from '../apiserver/authentication/serviceaccount/index.js';
import type { ControllerDefinition } from '../controller/context.js';
import { leaderElected } from '../controller/leader-elected.js';
import { csrCleanerController, csrSigningController } from '../controllers/certificates/index.js';
import { clusterRoleAggregationController } from '../controllers/clusterrole-aggregation/index.js';
import { cronJobController } from '../controllers/cronjob/index.js';
import { daemonSetController } from '../controllers/daemonset/index.js';
import { deploymentController } from '../controllers/deployment/index.js';
import { disruptionController } from '../controllers/disruption/index.js';
import { endpointsController } from '../controllers/endpoints/index.js';
import { endpointSliceController } from '../controllers/endpointslice/index.js';
import { garbageCollectorController } from '../controllers/garbage-collector/index.js';
import { jobController } from '../controllers/job/index.js';
import {
  nodeLifecycleController,
  podGarbageCollector,
  taintEvictionController,
} from '../controllers/node-lifecycle/index.js';
import { horizontalPodAutoscalerController } from '../controllers/podautoscaler/index.js';
import { replicaSetController } from '../controllers/replicaset/index.js';
import { replicationControllerController } from '../controllers/replication/index.js';
import { resourceQuotaController } from '../controllers/resourcequota/index.js';
import { rootCACertificatePublisher } from '../controllers/root-ca-cert-publisher/index.js';
import { serviceAccountController } from '../controllers/serviceaccount/index.js';
import { serviceAccountTokensController } from '../controllers/serviceaccount-token/index.js';
import { statefulSetController } from '../controllers/statefulset/index.js';
import { ttlAfterFinishedController } from '../controllers/ttl-after-finished/index.js';
import {
  pvcProtectionController,
  pvProtectionController,
} from '../controllers/volume-protection/index.js';
import { celldOperator, OPERATOR_LEASE_NAME } from '../operator/controller/index.js';
import { createSchedulerController } from '../scheduler/index.js';
import { csrIssuer } from '../security/csr-issuer.js';
import { simulatedNodes } from '../sim/kubelet/index.js';
import {
  type DefaultStorageClass,
  simulatedStorage,
  simulatedVolumeBinding,
} from '../sim/storage/index.js';
import { OPERATOR_SERVICE_ACCOUNT } from './component-identities.js';

export interface ClusterShape {
  /** Simulated nodes (`--nodes`; its default is up-flag-table.ts's). */
  readonly nodes: number;
  /** Zones the nodes are spread over, round-robin (`--zones`). */
  readonly zones: readonly string[];
  /** `--node-monitor-grace-period`. @default 50 s */
  readonly nodeMonitorGracePeriodMs?: number;
  /**
   * The kubelets' `nodeLeaseDurationSeconds`; they renew at a quarter of it, as upstream. A
   * grace period shorter than the renew interval (10 s by default) makes healthy nodes flap.
   * @default 40
   */
  readonly nodeLeaseDurationSeconds?: number;
  /** Which simulated StorageClass is the default (`--default-storage-class`). */
  readonly defaultStorageClass: DefaultStorageClass;
  /** The celld operator's `--member-replacement-delay`. @default 10 min */
  readonly memberReplacementDelayMs?: number;
  /**
   * The directory of the cluster CA (`ca.crt`, `ca.key`) that signs approved
   * CertificateSigningRequests, as kube-controller-manager's `--cluster-signing-cert-file` and
   * `--cluster-signing-key-file`; without it no signer runs (a remote `fleetyard controllers`).
   */
  readonly signingCaDir?: string;
  /** The controller-side feature gates (`--feature-gates`). */
  readonly gates?: {
    readonly maxUnavailableStatefulSet: boolean;
    readonly statefulSetRecreateStrategy: boolean;
  };
}

/** Every controller `up` can run, in start order (nodes first, so pods have somewhere to go). */
export function clusterControllers(shape: ClusterShape): ControllerDefinition[] {
  const grace =
    shape.nodeMonitorGracePeriodMs === undefined
      ? {}
      : { nodeMonitorGracePeriodMs: shape.nodeMonitorGracePeriodMs };
  return [
    simulatedNodes({
      count: shape.nodes,
      zones: [...shape.zones],
      ...(shape.nodeLeaseDurationSeconds === undefined
        ? {}
        : {
            timing: {
              leaseDurationSeconds: shape.nodeLeaseDurationSeconds,
              leaseRenewMs: shape.nodeLeaseDurationSeconds * 250,
            },
          }),
    }),
    createSchedulerController({ volumeBinding: simulatedVolumeBinding }),
    ...simulatedStorage({ defaultClass: shape.defaultStorageClass }),
    pvcProtectionController(),
    pvProtectionController(),
    replicaSetController,
    replicationControllerController,
    deploymentController,
    statefulSetController(shape.gates ? { gates: shape.gates } : {}),
    jobController,
    ttlAfterFinishedController,
    cronJobController,
    daemonSetController(),
    endpointsController,
    endpointSliceController(),
    garbageCollectorController,
    resourceQuotaController,
    disruptionController,
    horizontalPodAutoscalerController(),
    nodeLifecycleController(grace),
    taintEvictionController(),
    podGarbageCollector(),
    serviceAccountController(),
    rootCACertificatePublisher(),
    clusterRoleAggregationController(),
    // Signs legacy Secret tokens with the API server's key (`sa.key` beside the CA).
    ...(shape.signingCaDir === undefined
      ? []
      : [
          serviceAccountTokensController({
            generateToken: legacyTokenGeneratorFromDir(shape.signingCaDir),
          }),
        ]),
    ...(shape.signingCaDir === undefined
      ? []
      : [csrSigningController(csrIssuer(shape.signingCaDir))]),
    csrCleanerController(),
    // The embedded cluster counts as local and network-isolated (nothing leaves the process),
    // so example fleets reach Ready with no flags; `fleetyard operator` keeps the safe defaults.
    leaderElected(
      celldOperator({
        networkPolicyEnforced: true,
        localTest: true,
        ...(shape.memberReplacementDelayMs === undefined
          ? {}
          : { memberReplacementDelayMs: shape.memberReplacementDelayMs }),
      }),
      { name: OPERATOR_LEASE_NAME, namespace: OPERATOR_SERVICE_ACCOUNT.namespace },
    ),
  ];
}

/**
 * Applies a `--controllers` value to the list; throws on an unknown name (a typo must not
 * silently leave a controller running or stopped).
 */
export function selectControllers(
  all: readonly ControllerDefinition[],
  selection: string,
): ControllerDefinition[] {
  const names = new Set(all.map((c) => c.name));
  const items = selection
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const star = items.includes('*');
  const enabled = new Set<string>();
  const disabled = new Set<string>();
  for (const item of items) {
    if (item === '*') continue;
    const negated = item.startsWith('-');
    const name = negated ? item.slice(1) : item;
    if (!names.has(name)) {
      throw new Error(
        `unknown controller "${name}" in --controllers (known: ${[...names].join(', ')})`,
      );
    }
    (negated ? disabled : enabled).add(name);
  }
  return all.filter((c) => !disabled.has(c.name) && (star || enabled.has(c.name)));
}
