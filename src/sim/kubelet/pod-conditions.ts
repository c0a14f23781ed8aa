/**
 * The pod conditions the kubelet owns, in upstream order (PodReadyToStartContainers,
 * Initialized, Ready, ContainersReady, PodScheduled), with upstream reasons and messages.
 * Conditions owned by others (DisruptionTarget, readiness-gate types) are kept as they are.
 *
 * @module
 */

import type { Container, ContainerStatus, KubeletPod, PodCondition } from './kubelet-pod.js';
import { condition, goList, readinessGateMessage } from './pod-status.js';
import type { ContainerKind } from './stages.js';

export interface ConditionInputs {
  phase: string;
  initialized: boolean;
  inits: { spec: Container; kind: ContainerKind }[];
  initStatuses: ContainerStatus[];
  statuses: ContainerStatus[];
  now: number;
}

export const KUBELET_CONDITIONS: ReadonlySet<string> = new Set([
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
]);

function incompleteInits(x: ConditionInputs): string[] {
  return x.inits
    .filter((c, i) => {
      const cs = x.initStatuses[i];
      return c.kind === 'sidecar' ? !cs?.state?.running : cs?.state?.terminated?.exitCode !== 0;
    })
    .map((c) => c.spec.name);
}

/** Regular containers then sidecars that are not ready, in spec order. */
function unreadyContainers(pod: KubeletPod, x: ConditionInputs): string[] {
  const unready = pod.spec.containers.filter(
    (c) => !x.statuses.find((s) => s.name === c.name)?.ready,
  );
  const sidecars = x.inits.filter((c, i) => c.kind === 'sidecar' && !x.initStatuses[i]?.ready);
  return [...unready.map((c) => c.name), ...sidecars.map((c) => c.spec.name)];
}

export function podConditions(pod: KubeletPod, x: ConditionInputs): PodCondition[] {
  const old = pod.status?.conditions ?? [];
  const terminal = x.phase === 'Succeeded' || x.phase === 'Failed';
  const unready = unreadyContainers(pod, x);
  const completed = x.phase === 'Succeeded';
  const notReadyReason = completed ? 'PodCompleted' : 'ContainersNotReady';
  const notReadyMessage = completed
    ? undefined
    : `containers with unready status: ${goList(unready)}`;
  const containersReady = unready.length === 0 && !completed;
  const containersReadyCond = containersReady
    ? condition(old, 'ContainersReady', true, x.now)
    : condition(old, 'ContainersReady', false, x.now, notReadyReason, notReadyMessage);
  const gateMessage = readinessGateMessage(pod);
  let ready = condition(old, 'Ready', true, x.now);
  if (!containersReady)
    ready = condition(old, 'Ready', false, x.now, notReadyReason, notReadyMessage);
  else if (gateMessage)
    ready = condition(old, 'Ready', false, x.now, 'ReadinessGatesNotReady', gateMessage);
  const incomplete = incompleteInits(x);
  const initialized = x.initialized
    ? condition(old, 'Initialized', true, x.now)
    : condition(
        old,
        'Initialized',
        false,
        x.now,
        'ContainersNotInitialized',
        `containers with incomplete status: ${goList(incomplete)}`,
      );
  const scheduled =
    old.find((c) => c.type === 'PodScheduled') ?? condition(old, 'PodScheduled', true, x.now);
  const owned: PodCondition[] = [
    condition(old, 'PodReadyToStartContainers', !terminal, x.now),
    initialized,
    ready,
    containersReadyCond,
    scheduled,
  ];
  const others = old.filter((c) => !KUBELET_CONDITIONS.has(c.type));
  return [...owned, ...others];
}
