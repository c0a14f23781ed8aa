/**
 * The workload fields controllers read whose upstream default the API server writes
 * (`SetDefaults_ReplicaSet`, `SetDefaults_Deployment`, `SetDefaults_StatefulSet`, mirrored in
 * `src/api/kinds/apps-*.ts`). Objects a controller reads from its informers are defaulted
 * already; each accessor names the default once, for the objects that were not (built in a
 * test, or written before a default existed), instead of a `?? 1` at every read.
 *
 * @module
 */

/** The part of a workload's spec these accessors read. */
interface WorkloadSpec {
  readonly replicas?: number;
  readonly minReadySeconds?: number;
}

/** `spec.replicas` of a ReplicaSet, Deployment or StatefulSet: 1 when unset. */
export function replicasOf(workload: { readonly spec?: WorkloadSpec }): number {
  return workload.spec?.replicas ?? 1;
}

/** `spec.minReadySeconds`: 0 when unset (a pod is available as soon as it is ready). */
export function minReadySecondsOf(workload: { readonly spec?: WorkloadSpec }): number {
  return workload.spec?.minReadySeconds ?? 0;
}
