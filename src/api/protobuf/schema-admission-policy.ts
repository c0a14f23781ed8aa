/**
 * Protobuf schema tables: admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and
 * ValidatingAdmissionPolicyBinding (issue 18).
 *
 * Field numbers from k8s.io/api `admissionregistration/v1/generated.proto`; rows in Go struct
 * order. Rules and match conditions reuse the webhook tables (`core.RuleWithOperations`,
 * `core.MatchCondition`) of `schema-admissionregistration.ts`.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

export const admissionPolicyTables: MessageTables = {
  /** k8s.io.api.admissionregistration.v1.ValidatingAdmissionPolicy */
  'core.ValidatingAdmissionPolicy': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.ValidatingAdmissionPolicySpec', 'o'],
    [3, 'status', 'core.ValidatingAdmissionPolicyStatus', 'o'],
  ],
  'core.ValidatingAdmissionPolicySpec': [
    [1, 'paramKind', 'core.ParamKind', 'op'],
    [2, 'matchConstraints', 'core.MatchResources', 'op'],
    [3, 'validations', 'core.Validation', 'or'],
    [4, 'failurePolicy', 'string', 'op'],
    [5, 'auditAnnotations', 'core.AuditAnnotation', 'or'],
    [6, 'matchConditions', 'core.MatchCondition', 'or'],
    [7, 'variables', 'core.Variable', 'or'],
  ],
  'core.ValidatingAdmissionPolicyStatus': [
    [1, 'observedGeneration', 'int64', 'o'],
    [2, 'typeChecking', 'core.TypeChecking', 'op'],
    [3, 'conditions', 'meta.Condition', 'or'],
  ],
  'core.TypeChecking': [[1, 'expressionWarnings', 'core.ExpressionWarning', 'or']],
  'core.ExpressionWarning': [
    [2, 'fieldRef', 'string'],
    [3, 'warning', 'string'],
  ],
  'core.ParamKind': [
    [1, 'apiVersion', 'string', 'o'],
    [2, 'kind', 'string', 'o'],
  ],
  'core.Validation': [
    [1, 'expression', 'string'],
    [2, 'message', 'string', 'o'],
    [3, 'reason', 'string', 'op'],
    [4, 'messageExpression', 'string', 'o'],
  ],
  'core.Variable': [
    [1, 'name', 'string'],
    [2, 'expression', 'string'],
  ],
  'core.AuditAnnotation': [
    [1, 'key', 'string'],
    [2, 'valueExpression', 'string'],
  ],
  'core.MatchResources': [
    [1, 'namespaceSelector', 'meta.LabelSelector', 'op'],
    [2, 'objectSelector', 'meta.LabelSelector', 'op'],
    [3, 'resourceRules', 'core.NamedRuleWithOperations', 'or'],
    [4, 'excludeResourceRules', 'core.NamedRuleWithOperations', 'or'],
    [7, 'matchPolicy', 'string', 'op'],
  ],
  /** `RuleWithOperations` is inline in JSON, field 2 on the wire. */
  'core.NamedRuleWithOperations': [
    [1, 'resourceNames', 'string', 'or'],
    [2, '', 'core.RuleWithOperations', 'i'],
  ],
  /** …ValidatingAdmissionPolicyBinding */
  'core.ValidatingAdmissionPolicyBinding': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.ValidatingAdmissionPolicyBindingSpec', 'o'],
  ],
  'core.ValidatingAdmissionPolicyBindingSpec': [
    [1, 'policyName', 'string', 'o'],
    [2, 'paramRef', 'core.ParamRef', 'op'],
    [3, 'matchResources', 'core.MatchResources', 'op'],
    [4, 'validationActions', 'string', 'or'],
  ],
  'core.ParamRef': [
    [1, 'name', 'string', 'o'],
    [2, 'namespace', 'string', 'o'],
    [3, 'selector', 'meta.LabelSelector', 'op'],
    [4, 'parameterNotFoundAction', 'string', 'op'],
  ],
};
