/**
 * The member Pod template, exactly docs/design/operator.md §3: one `celld` container with the fixed environment,
 * the application and peer ports, a readiness probe and deliberately no liveness probe
 * (a member recovering its previous session must not be killed for being slow; readiness
 * alone paces rollouts), a locked-down security context, and the placement rules.
 *
 * @module
 */

import type {
  Container,
  ObjectMeta,
  PodSpec,
  PodTemplateSpec,
  ResourceRequirements,
} from '../../api/model/index.js';
import { FLEET_DEFAULTS } from '../api/fleet-defaults.js';
import { APPLICATION_PORT, PEER_PORT, renderEnv, WORK_DIR } from './env.js';
import type { FleetSpecView, ResolvedFleet } from './fleet-view.js';
import { resolveFleet } from './fleet-view.js';
import {
  ANNOTATION_RESTART_TOKEN,
  operatorLabels,
  SCHEDULING_GATE_BUCKET_ZONE,
  SCHEDULING_GATE_DISK_PLACEMENT,
} from './metadata.js';
import { renderAffinity, renderTopologySpread } from './scheduling.js';

export const CONTAINER_NAME = 'celld';
export const DATA_VOLUME = 'data';
export const HEALTH_PATH = '/.well-known/celld/health';
export const RUN_AS_ID = 10001;

/** The member Pod template: a `PodTemplateSpec` whose labels and spec are always set. */
export type PodTemplate = PodTemplateSpec & {
  metadata: ObjectMeta & { labels: Record<string, string> };
  spec: PodSpec;
};

function resources(fleet: ResolvedFleet): ResourceRequirements {
  const exec = fleet.spec.execution ?? {};
  const requests: Record<string, string> = {
    cpu: exec.cpuRequest ?? FLEET_DEFAULTS.cpuRequest,
    memory: exec.memoryRequest ?? FLEET_DEFAULTS.memoryRequest,
  };
  const limits: Record<string, string> = {
    memory: exec.memoryLimit ?? FLEET_DEFAULTS.memoryLimit,
  };
  // No CPU limit by default: throttling a member stalls lease renewal and looks like a loss.
  if (exec.cpuLimit !== undefined) limits.cpu = exec.cpuLimit;
  if (fleet.workload !== 'PersistentFleet') {
    // Bucket members keep their cache on the node's disk; account for it so the kubelet evicts
    // a runaway member instead of filling the node.
    const size = `${fleet.sizeGiB}Gi`;
    requests['ephemeral-storage'] = size;
    limits['ephemeral-storage'] = size;
  }
  return { requests, limits };
}

function container(fleet: ResolvedFleet): Container {
  return {
    name: CONTAINER_NAME,
    image: fleet.spec.runtimeImage,
    imagePullPolicy: 'IfNotPresent',
    ports: [
      { name: 'application', containerPort: APPLICATION_PORT, protocol: 'TCP' },
      { name: 'peer', containerPort: PEER_PORT, protocol: 'TCP' },
    ],
    env: renderEnv(fleet),
    resources: resources(fleet),
    volumeMounts: [{ name: DATA_VOLUME, mountPath: WORK_DIR }],
    readinessProbe: {
      httpGet: { path: HEALTH_PATH, port: APPLICATION_PORT, scheme: 'HTTP' },
      periodSeconds: 2,
      timeoutSeconds: 1,
      failureThreshold: 3,
      successThreshold: 1,
    },
    securityContext: {
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    },
  };
}

function podSpec(fleet: ResolvedFleet): PodSpec {
  const spec: PodSpec = {
    serviceAccountName: fleet.serviceAccountName,
    // celld reaches S3 through the account's cloud identity, never the Kubernetes API.
    automountServiceAccountToken: false,
    terminationGracePeriodSeconds: fleet.terminationGraceSeconds,
    securityContext: {
      runAsUser: RUN_AS_ID,
      runAsGroup: RUN_AS_ID,
      runAsNonRoot: true,
      fsGroup: RUN_AS_ID,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    affinity: renderAffinity(fleet),
    containers: [container(fleet)],
  };
  const spread = renderTopologySpread(fleet);
  if (spread) spec.topologySpreadConstraints = spread;
  if (fleet.workload === 'Ordered') {
    spec.schedulingGates = [{ name: SCHEDULING_GATE_BUCKET_ZONE }];
  }
  if (fleet.workload === 'PersistentFleet') {
    // A member on a fresh disk must not take the node or zone room a kept disk needs; the
    // operator releases each member once that is settled (scaling/release.ts).
    spec.schedulingGates = [{ name: SCHEDULING_GATE_DISK_PLACEMENT }];
  }
  if (fleet.workload !== 'PersistentFleet') {
    // PersistentFleet mounts the claim template `data`; Bucket members get scratch space.
    spec.volumes = [{ name: DATA_VOLUME, emptyDir: { sizeLimit: `${fleet.sizeGiB}Gi` } }];
  }
  return spec;
}

/** The Pod template from an already resolved fleet. */
export function renderPodTemplateResolved(fleet: ResolvedFleet): PodTemplate {
  const metadata: PodTemplate['metadata'] = { labels: operatorLabels(fleet) };
  const token = fleet.spec.maintenance?.restartToken;
  if (token) metadata.annotations = { [ANNOTATION_RESTART_TOKEN]: token };
  return { metadata, spec: podSpec(fleet) };
}

/** The member Pod template of a fleet (docs/design/operator.md §3). */
export function renderPodTemplate(fleet: FleetSpecView): PodTemplate {
  return renderPodTemplateResolved(resolveFleet(fleet));
}
