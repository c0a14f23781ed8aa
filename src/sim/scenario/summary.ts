/**
 * One-line summaries of objects for the timeline and the event history: what a reader needs
 * to follow a failure story (a pod's phase, readiness, node and termination; a node's
 * readiness, taints and simulated state; a claim's phase and volume; a workload's replica
 * counts), not the whole object.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';

type Rec = Readonly<Record<string, unknown>>;

function rec(v: unknown): Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v))
    : {};
}

function list(v: unknown): Rec[] {
  return Array.isArray(v) ? v.map(rec) : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}

function conditionStatus(status: Rec, type: string): string | undefined {
  return str(list(status.conditions).find((c) => c.type === type)?.status);
}

/** `Running, Ready, on fleetyard-node-1`, `Pending (Unschedulable)`, `Running, not ready, Terminating`. */
export function summarize(obj: KubeObject): string {
  const parts = summaryParts(obj);
  if (obj.metadata?.deletionTimestamp) parts.push('Terminating');
  return parts.join(', ');
}

function summaryParts(obj: KubeObject): string[] {
  const spec = rec(obj.spec);
  const status = rec(obj.status);
  switch (obj.kind) {
    case 'Pod':
      return podSummary(spec, status);
    case 'Node':
      return nodeSummary(obj, spec, status);
    case 'PersistentVolumeClaim':
      return [
        str(status.phase) ?? 'Pending',
        ...(str(spec.volumeName) ? [`volume ${str(spec.volumeName)}`] : []),
      ];
    case 'PersistentVolume': {
      const claim = rec(spec.claimRef);
      const bound = str(claim.name)
        ? [`claim ${str(claim.namespace) ?? ''}/${str(claim.name)}`]
        : [];
      return [str(status.phase) ?? 'Pending', ...bound];
    }
    case 'StatefulSet':
    case 'Deployment':
    case 'ReplicaSet':
      return [
        `replicas ${num(spec.replicas)}: ready ${num(status.readyReplicas)}, updated ${num(status.updatedReplicas)}`,
        ...generationParts(obj, status),
      ];
    default:
      return genericSummary(obj, status);
  }
}

function podSummary(spec: Rec, status: Rec): string[] {
  const parts = [str(status.phase) ?? 'Pending'];
  const waiting = list(status.containerStatuses)
    .map((c) => str(rec(rec(c.state).waiting).reason))
    .find((r) => r !== undefined);
  if (waiting) parts.push(waiting);
  const restarts = list(status.containerStatuses).reduce((n, c) => n + num(c.restartCount), 0);
  if (restarts > 0) parts.push(`${restarts} restarts`);
  const ready = conditionStatus(status, 'Ready');
  if (ready !== undefined) parts.push(ready === 'True' ? 'Ready' : 'not ready');
  const scheduled = list(status.conditions).find((c) => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && str(scheduled.reason))
    parts.push(`(${str(scheduled.reason)})`);
  const node = str(spec.nodeName);
  if (node) parts.push(`on ${node}`);
  return parts;
}

function nodeSummary(obj: KubeObject, spec: Rec, status: Rec): string[] {
  const parts = [`Ready=${conditionStatus(status, 'Ready') ?? 'Unknown'}`];
  if (obj.metadata?.annotations?.['sim.fleetyard.dev/state'] === 'down') parts.push('kubelet down');
  if (spec.unschedulable === true) parts.push('cordoned');
  const taints = list(spec.taints)
    .map((t) => `${str(t.key)}:${str(t.effect)}`)
    .join(' ');
  if (taints) parts.push(`taints ${taints}`);
  return parts;
}

function genericSummary(obj: KubeObject, status: Rec): string[] {
  const parts: string[] = [];
  const phase = str(status.phase);
  if (phase) parts.push(phase);
  const conditions = list(status.conditions)
    .filter((c) => str(c.type) && str(c.status))
    .map((c) => `${str(c.type)}=${str(c.status)}`);
  if (conditions.length > 0) parts.push(conditions.slice(0, 4).join(' '));
  parts.push(...generationParts(obj, status));
  return parts.length > 0 ? parts : ['changed'];
}

function generationParts(obj: KubeObject, status: Rec): string[] {
  const generation = obj.metadata?.generation;
  if (typeof generation !== 'number') return [];
  const observed = status.observedGeneration;
  return typeof observed === 'number' && observed !== generation
    ? [`generation ${generation} (observed ${observed})`]
    : [`generation ${generation}`];
}
