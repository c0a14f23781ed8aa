/**
 * The ReplicationController as the ReplicaSet controller sees it (upstream
 * `pkg/controller/replication/conversion.go`): an RC is a ReplicaSet whose selector is a
 * label map. The pure planners of `../replicaset/` (`manageReplicas`, `replicaSetStatus`)
 * work on the ReplicaSet view; the status they compute is written back to the RC as it is
 * (the two status types have the same fields and the same `ReplicaFailure` condition).
 *
 * @module
 */
import {
  type LabelSelector,
  LabelSelectorParseError,
  labelSelectorFromObject,
} from '../../api/labels/selector.js';
import type { ReplicaSet, ReplicationController } from '../../api/model/index.js';
import type { GroupVersionKind } from '../../controller/controller-ref.js';

/** The kind RC-owned pods' controller refs carry (`v1 ReplicationController`). */
export const REPLICATION_CONTROLLER_KIND: GroupVersionKind = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
};

/** Where RCs are served. */
export const REPLICATION_CONTROLLERS = {
  group: '',
  version: 'v1',
  plural: 'replicationcontrollers',
} as const;

/** Upstream `Convert_v1_ReplicationController_To_apps_ReplicaSet`, on the fields the planners read. */
export function replicaSetView(rc: ReplicationController): ReplicaSet {
  const spec = rc.spec ?? {};
  const selector = spec.selector ?? {};
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: rc.metadata ?? {},
    spec: {
      ...(spec.replicas !== undefined ? { replicas: spec.replicas } : {}),
      ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
      selector: { matchLabels: { ...selector } },
      ...(spec.template !== undefined ? { template: spec.template } : {}),
    },
    ...(rc.status !== undefined ? { status: { ...rc.status } } : {}),
  };
}

/**
 * The RC's selector (upstream `labels.SelectorFromSet`); undefined when empty or invalid:
 * an RC without a selector selects nothing (validation forbids it anyway).
 */
export function rcSelector(rc: ReplicationController): LabelSelector | undefined {
  const selector = rc.spec?.selector ?? {};
  if (Object.keys(selector).length === 0) return undefined;
  try {
    return labelSelectorFromObject({ matchLabels: selector });
  } catch (err) {
    if (err instanceof LabelSelectorParseError) return undefined;
    throw err;
  }
}
