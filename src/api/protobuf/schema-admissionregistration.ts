/**
 * Protobuf schema tables: admissionregistration.k8s.io/v1 ValidatingWebhookConfiguration and
 * MutatingWebhookConfiguration (stored and validated; calling them is issue 18's).
 *
 * Field numbers from k8s.io/api v0.33 `admissionregistration/v1/generated.proto`; rows in Go
 * struct order. Filed under the `core` table group, as the other groups without a `TableGroup`
 * of their own; the names are internal (never on the wire).
 *
 * @module
 */
import type { FieldRow, MessageTables } from './schema.js';

/** The fields both webhook kinds share, by JSON name (their numbers differ after 10). */
function webhook(objectSelector: number, matchConditions: number): FieldRow[] {
  return [
    [1, 'name', 'string'],
    [2, 'clientConfig', 'core.WebhookClientConfig'],
    [3, 'rules', 'core.RuleWithOperations', 'or'],
    [4, 'failurePolicy', 'string', 'op'],
    [9, 'matchPolicy', 'string', 'op'],
    [5, 'namespaceSelector', 'meta.LabelSelector', 'op'],
    [objectSelector, 'objectSelector', 'meta.LabelSelector', 'op'],
    [6, 'sideEffects', 'string', 'p'],
    [7, 'timeoutSeconds', 'int32', 'op'],
    [8, 'admissionReviewVersions', 'string', 'r'],
    [matchConditions, 'matchConditions', 'core.MatchCondition', 'or'],
  ];
}

export const admissionRegistrationTables: MessageTables = {
  /** k8s.io.api.admissionregistration.v1.ValidatingWebhookConfiguration */
  'core.ValidatingWebhookConfiguration': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'webhooks', 'core.ValidatingWebhook', 'or'],
  ],
  /** …MutatingWebhookConfiguration */
  'core.MutatingWebhookConfiguration': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'webhooks', 'core.MutatingWebhook', 'or'],
  ],
  'core.ValidatingWebhook': webhook(10, 11),
  'core.MutatingWebhook': [...webhook(11, 12), [10, 'reinvocationPolicy', 'string', 'op']],
  /** …WebhookClientConfig */
  'core.WebhookClientConfig': [
    [3, 'url', 'string', 'op'],
    [1, 'service', 'core.WebhookServiceReference', 'op'],
    [2, 'caBundle', 'bytes', 'o'],
  ],
  /** …admissionregistration.v1.ServiceReference */
  'core.WebhookServiceReference': [
    [1, 'namespace', 'string'],
    [2, 'name', 'string'],
    [3, 'path', 'string', 'op'],
    [4, 'port', 'int32', 'op'],
  ],
  /** …RuleWithOperations: `Rule` is inline in JSON, field 2 on the wire. */
  'core.RuleWithOperations': [
    [1, 'operations', 'string', 'or'],
    [2, '', 'core.WebhookRule', 'i'],
  ],
  /** …Rule */
  'core.WebhookRule': [
    [1, 'apiGroups', 'string', 'or'],
    [2, 'apiVersions', 'string', 'or'],
    [3, 'resources', 'string', 'or'],
    [4, 'scope', 'string', 'op'],
  ],
  /** …MatchCondition */
  'core.MatchCondition': [
    [1, 'name', 'string'],
    [2, 'expression', 'string'],
  ],
};
