/**
 * Admission webhooks (Validating and Mutating WebhookConfigurations) called as kube-apiserver
 * calls them. The lead wires {@link WebhookDispatcher} into the write path through
 * `WriteOptions.admit` (see docs/webhooks.md).
 *
 * @module
 */
export { WebhookDispatcher, type WebhookDispatcherOptions } from './dispatcher.js';
export { isExemptFromWebhooks } from './matching.js';
export {
  type AdmissionAttributes,
  type AdmissionOperation,
  AdmissionRecord,
  type AnnotationLevel,
  type AuditAnnotation,
  type GroupVersionKind,
  type GroupVersionResource,
  type WebhookLookup,
} from './types.js';
