/**
 * The inputs and outputs of ValidatingAdmissionPolicy evaluation: the admission request as
 * upstream's `admission.Attributes` describe it, the lookups the evaluator reads the cluster
 * through, and the outcome (a denial, warnings, audit annotations).
 *
 * @module
 */
import type { StatusError } from '../../../api/errors.js';
import type {
  ParamKind,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Authorizer } from '../../authorization/types.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

/** One admission request (upstream `admission.Attributes`). */
export interface PolicyRequest {
  readonly operation: Operation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** `''` or absent for the main resource. */
  readonly subResource?: string;
  /** `''` or absent for cluster-scoped resources; a Namespace's own name for namespaces. */
  readonly namespace?: string;
  /** May be empty on create with `generateName`. */
  readonly name?: string;
  /** The new object; absent on DELETE (the CONNECT options object on CONNECT). */
  readonly object?: KubeObject | null;
  /** The stored object on UPDATE and DELETE; absent on CREATE. */
  readonly oldObject?: KubeObject | null;
  readonly userInfo: UserInfo;
  readonly dryRun?: boolean;
  /** The operation's options (CreateOptions, UpdateOptions, DeleteOptions) as JSON. */
  readonly options?: KubeObject | null;
  readonly uid?: string;
}

/** Where a paramKind's objects are read. */
export interface ParamSource {
  readonly namespaced: boolean;
  /** All objects of the kind in `namespace` (every object when cluster-scoped). */
  list(namespace: string | undefined): readonly KubeObject[];
}

/** A resource that serves the same objects in another version (matchPolicy Equivalent). */
export interface EquivalentResource {
  readonly resource: GroupVersionResource;
  readonly kind: GroupVersionKind;
}

/** What the evaluator reads: the configuration and lookups into the cluster. */
export interface PolicyInputs {
  readonly policies: readonly ValidatingAdmissionPolicy[];
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[];
  /** The objects of a paramKind, or undefined when the kind is not served. */
  readonly params: (paramKind: ParamKind) => ParamSource | undefined;
  /** A Namespace by name. */
  readonly namespace: (name: string) => KubeObject | undefined;
  /** Answers `authorizer` checks; without one every check is `NoOpinion` with an error. */
  readonly authorizer?: Authorizer;
  /** Other versions of the request's resource, for `matchPolicy: Equivalent`. */
  readonly equivalentResources?: (
    resource: GroupVersionResource,
    subResource: string,
  ) => readonly EquivalentResource[];
}

/** The result of all policies on one request. */
export interface PolicyOutcome {
  /** The first denial, as upstream returns it; absent when the request is admitted. */
  readonly denied?: StatusError;
  /** `Warn` texts, to send as `Warning: 299 - "…"` headers. */
  readonly warnings: readonly string[];
  /** Audit annotations for the request's audit event. */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}
