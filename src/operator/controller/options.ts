/**
 * The celld operator's process settings (not a fleet's): the flags of `fleetyard operator`
 * (docs/design/operator.md §1) and what `fleetyard up` passes when it runs the operator inside
 * the embedded cluster.
 *
 * @module
 */

/** Its name in `--controllers`, logs and the `controller` label of metrics. */
export const OPERATOR_CONTROLLER_NAME = 'celld-operator';
/** The Events' source component and the field manager of its writes. */
export const OPERATOR_COMPONENT = 'celld-operator';
/** The Lease replicas of the operator compete for (the Go operator's leader-election ID). */
export const OPERATOR_LEASE_NAME = 'celld-operator.celld.fleetyard.dev';
/** Where the standalone operator runs and holds its Lease, unless told otherwise. */
export const DEFAULT_OPERATOR_NAMESPACE = 'celld-system';
/** Fleets reconciled at once (the Go operator's MaxConcurrentReconciles). */
export const DEFAULT_OPERATOR_WORKERS = 4;

export interface CelldOperatorOptions {
  /**
   * `--member-replacement-delay`: how long exactly one member may be down before it is
   * replaced on a fresh disk. @default 600_000 (10 min); values under 60_000 are refused by
   * the CLI and raised to 1 min by the planner.
   */
  readonly memberReplacementDelayMs?: number;
  /**
   * `--network-policy-enforced`: an administrator attests that the CNI enforces
   * NetworkPolicy. Without it every fleet reports `IsolationUnverified` and nothing is
   * provisioned. `fleetyard up` sets it: the embedded cluster has no network to isolate.
   */
  readonly networkPolicyEnforced: boolean;
  /**
   * `--local-test`: allows the node-local `hostpath.csi.k8s.io` provisioner in the
   * StorageClass contract. `fleetyard up` sets it.
   */
  readonly localTest: boolean;
  /** `--namespace`: reconcile fleets of this namespace only (watches are scoped to it). */
  readonly namespace?: string;
  /** The operator Pods' namespace, admitted to the peer port by each fleet's NetworkPolicy. */
  readonly operatorNamespace?: string;
  /** @default DEFAULT_OPERATOR_WORKERS */
  readonly workers?: number;
}
