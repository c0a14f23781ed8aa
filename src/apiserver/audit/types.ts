/**
 * The `audit.k8s.io/v1` types fleetyard reads and writes (upstream
 * `k8s.io/apiserver/pkg/apis/audit/v1/types.go`): the Policy an operator configures with
 * `--audit-policy-file`, and the levels and stages an Event is written at.
 *
 * @module
 */

export const AUDIT_API_VERSION = 'audit.k8s.io/v1';

/** How much of a request is recorded, in increasing order (upstream `audit.Level`). */
export type Level = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
export const LEVELS: readonly Level[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** Where in its handling a request's event was written (upstream `audit.Stage`). */
export type Stage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';
export const STAGES: readonly Stage[] = [
  'RequestReceived',
  'ResponseStarted',
  'ResponseComplete',
  'Panic',
];

/** `a` records at least as much as `b` (upstream `Level.GreaterOrEqual`). */
export function levelAtLeast(a: Level, b: Level): boolean {
  return LEVELS.indexOf(a) >= LEVELS.indexOf(b);
}

/** Resources of one API group a rule names (upstream `GroupResources`). */
export interface GroupResources {
  /** `''` is the core group. */
  readonly group: string;
  /**
   * Plural names, `pods/log` for a subresource, `*` for all; a subresource of every resource
   * (`*` + `/status`) or every subresource of one (`pods/*`). Empty: all.
   */
  readonly resources: readonly string[];
  /** Object names; needs at least one resource. Empty: all names. */
  readonly resourceNames: readonly string[];
}

/** One rule: the first that matches a request decides its level (upstream `PolicyRule`). */
export interface PolicyRule {
  readonly level: Level;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  /** `''` matches cluster-scoped resources. */
  readonly namespaces: readonly string[];
  /** Paths, `*` for all, or a prefix ending in `*`. */
  readonly nonResourceURLs: readonly string[];
  /** The policy's `omitStages` with the rule's own (upstream `NewChecker` takes the union). */
  readonly omitStages: readonly Stage[];
  /** Absent: the policy's `omitManagedFields`. */
  readonly omitManagedFields?: boolean;
}

export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

/** What a policy decides for one request (upstream `RequestAuditConfig`). */
export interface RequestAuditConfig {
  readonly level: Level;
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}
