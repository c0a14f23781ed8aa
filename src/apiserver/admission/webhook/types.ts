/**
 * The shapes admission webhooks are called with: a request's admission attributes (upstream
 * `admission.Attributes`), the synchronous reads the webhook plugin needs from the store
 * ({@link WebhookLookup}: the configurations, Services, EndpointSlices, Endpoints, Namespaces and
 * the served resources), and the record a request's webhook calls leave behind (warnings for the
 * `Warning` headers, audit annotations). Kept apart from the dispatcher so the lead can build
 * attributes and lookups without importing the HTTP client.
 *
 * @module
 */
import type {
  EndpointSlice,
  Endpoints,
  MutatingWebhookConfiguration,
  Namespace,
  Service,
  ValidatingWebhookConfiguration,
} from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { ResourceDefinition } from '../../../api/resource.js';
import type { UserInfo } from '../../authentication/user.js';

/** Upstream `admission.Operation`. */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

export interface GroupVersionResource {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
}

export interface GroupVersionKind {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
}

/**
 * What a request is, as upstream's `admission.Attributes` has it (the object and old object
 * are passed separately, because the store hands them over at each admission point).
 */
export interface AdmissionAttributes {
  readonly operation: AdmissionOperation;
  /** The resource as requested (`apps/v1 deployments`). */
  readonly resource: GroupVersionResource;
  /** `''` for the main resource; `status`, `scale`, `exec`… */
  readonly subresource: string;
  /** The kind of the object sent (`autoscaling/v1 Scale` for `deployments/scale`). */
  readonly kind: GroupVersionKind;
  /**
   * `''` for cluster-scoped resources. For a request on a Namespace itself, the namespace's
   * name (upstream's RequestInfo does so for `/api/v1/namespaces/<name>`), except on create.
   */
  readonly namespace: string;
  /** `''` when the name is not known yet (a create with `generateName`). */
  readonly name: string;
  readonly userInfo: UserInfo;
  readonly dryRun: boolean;
  /** `CreateOptions`, `UpdateOptions`, `DeleteOptions` (or a CONNECT's options) as sent. */
  readonly options?: KubeObject;
}

/**
 * Synchronous reads of the store (its watch cache), after upstream's listers. Every method
 * answers what is stored now; a missing object is `undefined`.
 */
export interface WebhookLookup {
  mutatingWebhookConfigurations(): readonly MutatingWebhookConfiguration[];
  validatingWebhookConfigurations(): readonly ValidatingWebhookConfiguration[];
  namespace(name: string): Namespace | undefined;
  service(namespace: string, name: string): Service | undefined;
  /** The EndpointSlices labelled `kubernetes.io/service-name: <service>` in `namespace`. */
  endpointSlices(namespace: string, service: string): readonly EndpointSlice[];
  /** The legacy Endpoints of a Service (read when it has no EndpointSlice). */
  endpoints(namespace: string, name: string): Endpoints | undefined;
  /** Every served resource (the registry's `all()`), for `matchPolicy: Equivalent`. */
  resources(): readonly ResourceDefinition[];
}

/** Upstream's audit levels for an annotation (`AddAnnotationWithLevel`). */
export type AnnotationLevel = 'Metadata' | 'Request';

export interface AuditAnnotation {
  readonly key: string;
  readonly value: string;
  /** The lowest audit level that records it: a patch is recorded from `Request` up. */
  readonly level: AnnotationLevel;
}

/**
 * What one request's webhook calls leave for the response and the audit log. Upstream adds
 * warnings to the response's `Warning` headers (`299 - "<text>"`) and annotations to the audit
 * event; the lead reads both after the write.
 */
export class AdmissionRecord {
  readonly warnings: string[] = [];
  readonly #annotations = new Map<string, AuditAnnotation>();

  addWarning(text: string): void {
    // Upstream's warning recorder drops exact duplicates.
    if (text !== '' && !this.warnings.includes(text)) this.warnings.push(text);
  }

  /** Upstream `AddAnnotation`: the first value of a key stays (a second is logged and dropped). */
  addAnnotation(key: string, value: string, level: AnnotationLevel = 'Metadata'): void {
    if (!this.#annotations.has(key)) this.#annotations.set(key, { key, value, level });
  }

  get annotations(): readonly AuditAnnotation[] {
    return [...this.#annotations.values()];
  }
}
