/**
 * Builds the planner's destructive actions: the deletes with both preconditions, in the order
 * the reconcile must issue them, and the event that explains each. Pure.
 *
 * Replacement order is claim first, then pod. The claim's deletion is the durable, irreversible
 * record that a replacement began: while a scheduled pod uses the claim, `pvc-protection` keeps
 * it `Terminating`, so after a crash or a lost response the next plan sees "claim terminating,
 * pod scheduled" and finishes with `releaseDisk`; and the StatefulSet never starts a successor
 * on a claim being deleted (docs/design/statefulset.md §2, docs/design/volumes.md §4), so the old
 * disk cannot come back.
 */

import type { KubeObject } from '../../api/object.js';
import { formatTime } from '../../api/time.js';
import type { MemberFacts } from './member-facts.js';
import type { HealingAction, PlannedDelete } from './types.js';

/** A delete fenced by the object's uid and resourceVersion; undefined when either is missing. */
export function fencedDelete(
  kind: PlannedDelete['kind'],
  obj: KubeObject | undefined,
  gracePeriodSeconds?: number,
): PlannedDelete | undefined {
  const name = obj?.metadata?.name;
  const uid = obj?.metadata?.uid;
  const resourceVersion = obj?.metadata?.resourceVersion;
  if (!name || !uid || !resourceVersion) return undefined;
  const d: PlannedDelete = { kind, name, uid, resourceVersion };
  if (gracePeriodSeconds !== undefined) d.gracePeriodSeconds = gracePeriodSeconds;
  return d;
}

/** All deletes, or undefined when any object lacks a precondition: never delete unfenced. */
function allFenced(deletes: (PlannedDelete | undefined)[]): PlannedDelete[] | undefined {
  return deletes.every((d): d is PlannedDelete => d !== undefined) && deletes.length > 0
    ? deletes
    : undefined;
}

/** Rule 1: a pod stuck terminating past its grace + 2 min; grace 0, the disk is kept. */
export function forceDeleteAction(f: MemberFacts, name: string): HealingAction | undefined {
  const deletes = allFenced([fencedDelete('Pod', f.pod, 0)]);
  if (deletes === undefined) return undefined;
  return {
    kind: 'forceDeletePod',
    ordinal: f.ordinal,
    deletes,
    event: {
      type: 'Warning',
      reason: 'MemberForceDeleted',
      message: `Force-deleted Pod ${name}: its node has not confirmed termination; the member returns on its own disk`,
    },
  };
}

/** Finishing a replacement (or a claim deleted by hand): delete the pod that pins the claim. */
export function releaseDiskAction(f: MemberFacts, name: string): HealingAction | undefined {
  const deletes = allFenced([fencedDelete('Pod', f.pod)]);
  if (deletes === undefined) return undefined;
  return {
    kind: 'releaseDisk',
    ordinal: f.ordinal,
    deletes,
    event: {
      type: 'Normal',
      reason: 'MemberReplaced',
      message: `Replacing member ${name}: deleting its Pod so its old disk can be released`,
    },
  };
}

/** Claim first, then the pod unless it is already gone or terminating. */
function replacementDeletes(f: MemberFacts): PlannedDelete[] | undefined {
  const podDelete = f.pod === undefined || f.terminating ? [] : [fencedDelete('Pod', f.pod)];
  return allFenced([fencedDelete('PersistentVolumeClaim', f.claim), ...podDelete]);
}

/** Rule 2: a Lost claim has no volume behind it; replaced at once. */
export function lostDiskAction(f: MemberFacts, name: string): HealingAction | undefined {
  const deletes = replacementDeletes(f);
  if (deletes === undefined) return undefined;
  return {
    kind: 'replaceLostDisk',
    ordinal: f.ordinal,
    deletes,
    event: {
      type: 'Warning',
      reason: 'MemberDiskLost',
      message: `Replacing member ${name}: its volume no longer exists; celld records a bounded loss for any session with no other copy`,
    },
  };
}

/** Rule 3: the one down member, past the delay, while the rest of the fleet is ready. */
export function replaceMemberAction(
  f: MemberFacts,
  name: string,
  downSince: number,
): HealingAction | undefined {
  const deletes = replacementDeletes(f);
  if (deletes === undefined) return undefined;
  return {
    kind: 'replaceMember',
    ordinal: f.ordinal,
    deletes,
    event: {
      type: 'Warning',
      reason: 'MemberReplaced',
      message: `Replacing member ${name}: down since ${formatTime(downSince)} while the rest of the fleet is ready; it returns on a fresh disk`,
    },
  };
}
