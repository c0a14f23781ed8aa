/**
 * How a kind is served: its names (for discovery and URLs) and its strategy (defaults,
 * validation, selectable fields, subresources), after upstream's `rest.RESTCreateStrategy` /
 * `RESTUpdateStrategy` in `k8s.io/apiserver/pkg/registry/rest`.
 *
 * The API server does everything generic (metadata rules, uid, resourceVersion, generation,
 * finalizers, status split, name validation by {@link ResourceDefinition.nameValidation});
 * a strategy only adds what is specific to its kind.
 *
 * @module
 */
import type { FieldError } from './field-error.js';
import type { KubeObject } from './object.js';
import type { Schema } from './schema/types.js';

/** Where a kind's `/scale` subresource reads and writes (JSON paths as dotted field names). */
export interface ScaleSpec {
  /** e.g. `spec.replicas` */
  readonly specReplicasPath: string;
  /** e.g. `status.replicas` */
  readonly statusReplicasPath: string;
  /** e.g. `spec.selector` (a metav1.LabelSelector) or, for CRDs, `status.selector` (a string) */
  readonly labelSelectorPath?: string;
  /**
   * The selector at `labelSelectorPath` is a `map[string]string` (a ReplicationController's),
   * reported as upstream's `labels.SelectorFromSet(…).String()`.
   */
  readonly selectorIsMap?: boolean;
}

/**
 * Who makes a create (upstream's user from the request context), for the kinds that record it:
 * a CertificateSigningRequest's `spec.username`, `uid`, `groups` and `extra`.
 */
export interface Requester {
  readonly username: string;
  readonly uid?: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export interface KindStrategy {
  /**
   * Fills upstream defaults in place (`SetDefaults_*`), on create and on every update, as the
   * upstream decoder does. Must be idempotent.
   */
  defaults?(obj: KubeObject): void;
  /**
   * Resets what a client may not set on create (upstream `PrepareForCreate`): e.g. a
   * Deployment's status is cleared, a Pod's status becomes `{phase: Pending}`.
   */
  prepareForCreate?(obj: KubeObject, requester?: Requester): void;
  /**
   * Carries over what a write to the main resource may not change (upstream
   * `PrepareForUpdate`), e.g. a Namespace's `spec.finalizers`, which change only through
   * `/finalize`. The generic rules (status, system metadata) are applied by the server.
   */
  prepareForUpdate?(obj: KubeObject, old: KubeObject): void;
  /**
   * Graceful deletion (upstream `CheckGracefulDelete`): how many seconds a DELETE leaves the
   * object Terminating before it may be removed, given the request's `gracePeriodSeconds`.
   * Kinds without it are removed at once (unless finalizers hold them).
   */
  gracePeriodSeconds?(obj: KubeObject, requested: number | undefined): number;
  /** Whether something besides `metadata.finalizers` holds a deleted object (a Namespace's `spec.finalizers`). */
  holdsDeletion?(obj: KubeObject): boolean;
  /** Marks an object whose deletion starts (a Namespace's phase becomes `Terminating`). */
  prepareForDeletion?(obj: KubeObject): void;
  /** Kind-specific validation of a new object (upstream `Validate`). Metadata is done generically. */
  validate?(obj: KubeObject): FieldError[];
  /** Kind-specific validation of an update (immutable fields…), after `validate` passed. */
  validateUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** Checks only a create needs, after `validate` passed (a custom resource's CEL rules without `oldSelf`). */
  validateCreate?(obj: KubeObject): FieldError[];
  /**
   * Validation of a `/status` write (upstream `ValidateUpdate` of the status strategy). Kinds
   * without it have only their metadata checked on status writes.
   */
  validateStatusUpdate?(obj: KubeObject, old: KubeObject): FieldError[];
  /** Extra field-selector values beyond metadata.name/namespace, e.g. `{'spec.nodeName': 'n1'}`. */
  selectableFields?(obj: KubeObject): Record<string, string>;
}

/** One `additionalPrinterColumns` entry of a CRD version (upstream `CustomResourceColumnDefinition`). */
export interface PrinterColumn {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly description?: string;
  readonly priority?: number;
  readonly jsonPath: string;
}

/** What a CustomResourceDefinition version adds to its resource's definition. */
export interface CustomResourceInfo {
  /** `<plural>.<group>`, the CRD's name. */
  readonly crdName: string;
  /** The version's `schema.openAPIV3Schema` (structural; no refs). */
  readonly schema: Schema | undefined;
  readonly printerColumns: readonly PrinterColumn[];
  /** JSON paths (`.spec.color`) from `selectableFields`, usable in field selectors. */
  readonly selectableFields: readonly string[];
  /** The CRD is being deleted: its custom resources are deleted and no new ones are created. */
  readonly terminating?: boolean;
}

/**
 * A resource served from another resource's storage (upstream: one storage version per
 * resource, every served version converted to and from it; `events.k8s.io` events cohabit
 * with core events). The storage names where the objects live (their keys); the two pure
 * functions convert between this definition's served form and the storage version's.
 */
export interface SharedStorage {
  /** The storage version's group ('' for core). */
  readonly group: string;
  readonly version: string;
  /** The storage version's plural: the objects' keys are `/<group>/<plural>/…`. */
  readonly plural: string;
  /** A served object (this definition's `apiVersion`) as the storage version's. Must not mutate `obj`. */
  toStorage(obj: KubeObject): KubeObject;
  /** A stored object as this definition's served version. Must not mutate `obj`. */
  fromStorage(obj: KubeObject): KubeObject;
}

export type NameValidation = 'dns-subdomain' | 'dns-label' | 'path-segment';

export interface ResourceDefinition {
  /** API group, '' for core. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly listKind: string;
  /** Plural resource name used in URLs, e.g. `deployments`. */
  readonly plural: string;
  readonly singular: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
  readonly categories?: readonly string[];
  /** How `metadata.name` is validated (upstream: most kinds DNS subdomain). */
  readonly nameValidation: NameValidation;
  /**
   * `spec`: generation starts at 1 and is bumped when anything but metadata and status
   * changes (and once when deletion starts). `spec-and-annotations`: also when annotations
   * change (Deployments: their annotations are copied to ReplicaSets and drive rollbacks).
   * `all-but-metadata`: any change outside metadata, status included (custom resources
   * without a status subresource). `none`: the kind does not track generation.
   */
  readonly generation: 'spec' | 'spec-and-annotations' | 'all-but-metadata' | 'none';
  /** Serves `/status`; the main resource then ignores status changes. */
  readonly statusSubresource: boolean;
  /** Serves `/scale` as autoscaling/v1 Scale. */
  readonly scale?: ScaleSpec;
  /** A DELETE that removes the object answers with it rather than a Status (upstream `ReturnDeletedObject`: pods). */
  readonly returnsDeletedObject?: boolean;
  readonly strategy: KindStrategy;
  /** Present only on resources served for a CustomResourceDefinition. */
  readonly customResource?: CustomResourceInfo;
  /**
   * Present when this version is served from another version's storage (see
   * {@link SharedStorage}); absent: this definition is its own storage version.
   */
  readonly storage?: SharedStorage;
  /**
   * The verbs served, when not every verb: the access reviews are create-only and never
   * stored (upstream's `rest.Creater`-only REST).
   */
  readonly verbs?: readonly string[];
}

export function apiVersionOf(def: Pick<ResourceDefinition, 'group' | 'version'>): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`;
}

/** The group-qualified resource, for Status errors (`deployments.apps`). */
export function groupResource(def: Pick<ResourceDefinition, 'group' | 'plural'>): {
  group: string;
  resource: string;
} {
  return { group: def.group, resource: def.plural };
}
