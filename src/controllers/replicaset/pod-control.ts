/**
 * Pod writes of the ReplicaSet controller with their Events (upstream `controller_utils.go:
 * RealPodControl.CreatePods / DeletePod`). A narrow interface so `manageReplicas` can be tested
 * with a fake that fails on demand.
 *
 * Events on the ReplicaSet, as upstream:
 * - Normal `SuccessfulCreate` "Created pod: <name>", Warning `FailedCreate` "Error creating: <err>"
 *   (none when the namespace is terminating: every create would fail, nothing is wrong);
 * - Normal `SuccessfulDelete` "Deleted pod: <name>", Warning `FailedDelete` "Error deleting: <err>"
 *   (none for NotFound: the pod is already gone).
 *
 * @module
 */
import type { Pod, ReplicaSet } from '../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isNotFound } from '../../client/api-client.js';
import { StatusCodeError } from '../../client/lister-watcher.js';
import { RESOURCES } from '../../controller/context.js';
import { newControllerRef } from '../../controller/controller-ref.js';
import type { EventRecorder } from '../../controller/events.js';
import { checkPodCreatable, podFromTemplate } from '../../controller/pod-template.js';
import { REPLICA_SET_KIND } from './lookup.js';

export const SUCCESSFUL_CREATE_REASON = 'SuccessfulCreate';
export const FAILED_CREATE_REASON = 'FailedCreate';
export const SUCCESSFUL_DELETE_REASON = 'SuccessfulDelete';
export const FAILED_DELETE_REASON = 'FailedDelete';

/** Upstream `v1.NamespaceTerminatingCause`: the StatusCause type of a create refused by a dying namespace. */
export const NAMESPACE_TERMINATING_CAUSE = 'NamespaceTerminating';

/** The pod writes `manageReplicas` needs. */
export interface PodControl {
  /** Creates one pod from `rs`'s template, controlled by `rs`. Rejects with the API error. */
  createPod(rs: ReplicaSet): Promise<void>;
  /** Deletes `pod` (owned by `rs`). Rejects with the API error (NotFound included). */
  deletePod(rs: ReplicaSet, pod: Pod): Promise<void>;
}

/** Upstream `apierrors.HasStatusCause(err, name)`: a cause of that type in the Status details. */
export function hasStatusCause(err: unknown, cause: string): boolean {
  if (!(err instanceof StatusCodeError)) return false;
  const details = err.status?.details;
  const causes = isJsonObject(details) ? details.causes : undefined;
  return Array.isArray(causes) && causes.some((c) => isJsonObject(c) && c.reason === cause);
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The {@link PodControl} that writes through the API and records Events on the ReplicaSet. */
export function apiPodControl(client: ApiClient, recorder: EventRecorder): PodControl {
  return {
    async createPod(rs) {
      const template = rs.spec?.template ?? {};
      const pod = podFromTemplate(template, rs, newControllerRef(rs, REPLICA_SET_KIND));
      const refused = checkPodCreatable(pod);
      if (refused !== undefined) throw refused;
      const namespace = rs.metadata?.namespace ?? '';
      let created: KubeObject;
      try {
        created = await client.create({ ...RESOURCES.pods, namespace }, pod);
      } catch (err) {
        if (!hasStatusCause(err, NAMESPACE_TERMINATING_CAUSE)) {
          recorder.event(rs, 'Warning', FAILED_CREATE_REASON, `Error creating: ${errorText(err)}`);
        }
        throw err;
      }
      recorder.event(
        rs,
        'Normal',
        SUCCESSFUL_CREATE_REASON,
        `Created pod: ${created.metadata?.name ?? ''}`,
      );
    },
    async deletePod(rs, pod) {
      const name = pod.metadata?.name ?? '';
      const namespace = pod.metadata?.namespace ?? '';
      try {
        await client.delete({ ...RESOURCES.pods, namespace, name });
      } catch (err) {
        if (isNotFound(err)) throw err;
        recorder.event(rs, 'Warning', FAILED_DELETE_REASON, `Error deleting: ${errorText(err)}`);
        throw new Error(`unable to delete pods: ${errorText(err)}`, { cause: err });
      }
      recorder.event(rs, 'Normal', SUCCESSFUL_DELETE_REASON, `Deleted pod: ${name}`);
    },
  };
}
