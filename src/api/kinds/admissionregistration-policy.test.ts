import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import {
  validatingAdmissionPolicyBindingResource as BINDING,
  validatingAdmissionPolicyResource as POLICY,
} from './admissionregistration-policy.js';
import { simulateCreate, simulateUpdate } from './harness.js';

/** A create as the store runs it: the shared rules, then the create-only ones if they passed. */
function create(
  def: ResourceDefinition,
  obj: KubeObject,
): { object: KubeObject; messages: string[] } {
  const out = simulateCreate(def, obj);
  if (out.errors.length > 0) return out;
  return {
    object: out.object,
    messages: (def.strategy.validateCreate?.(out.object) ?? []).map(fieldErrorText),
  };
}

function update(def: ResourceDefinition, obj: KubeObject, old: KubeObject): string[] {
  return simulateUpdate(def, obj, old).messages;
}

const RULES = {
  resourceRules: [
    {
      apiGroups: ['apps'],
      apiVersions: ['v1'],
      operations: ['CREATE', 'UPDATE'],
      resources: ['deployments'],
    },
  ],
};

function policy(spec: Record<string, unknown>, name = 'demo-policy.example.com'): KubeObject {
  return {
    metadata: { name },
    spec: {
      matchConstraints: RULES,
      validations: [{ expression: 'object.spec.replicas <= 5' }],
      ...spec,
    },
  };
}

function binding(spec: Record<string, unknown>): KubeObject {
  return {
    metadata: { name: 'demo-binding-test.example.com' },
    spec: { policyName: 'demo-policy.example.com', validationActions: ['Deny'], ...spec },
  };
}

describe('ValidatingAdmissionPolicy', () => {
  it('defaults what upstream defaults and clears status on create', () => {
    const { object, messages } = create(POLICY, {
      ...policy({}),
      status: { observedGeneration: 3 },
    });
    assert.deepEqual(messages, []);
    assert.equal(object.status, undefined);
    const spec = object.spec as Record<string, Record<string, unknown>>;
    assert.equal(spec.failurePolicy, 'Fail');
    assert.deepEqual(spec.matchConstraints, {
      resourceRules: [{ ...RULES.resourceRules[0], scope: '*' }],
      matchPolicy: 'Equivalent',
      namespaceSelector: {},
      objectSelector: {},
    });
  });

  const cases: {
    name: string;
    spec: Record<string, unknown>;
    want: string[];
    policyName?: string;
  }[] = [
    { name: 'the docs example', spec: {}, want: [] },
    {
      name: 'params, variables, messageExpression, auditAnnotations, matchConditions',
      spec: {
        paramKind: { apiVersion: 'rules.example.com/v1', kind: 'ReplicaLimit' },
        variables: [{ name: 'max', expression: 'params.maxReplicas' }],
        matchConditions: [
          { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" },
        ],
        validations: [
          {
            expression: 'object.spec.replicas <= variables.max',
            messageExpression: "'at most ' + string(variables.max)",
            reason: 'Forbidden',
          },
        ],
        auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
      },
      want: [],
    },
    {
      name: 'no matchConstraints',
      spec: { matchConstraints: undefined },
      want: ['spec.matchConstraints: Required value'],
    },
    {
      name: 'no resourceRules',
      spec: { matchConstraints: {} },
      want: ['spec.matchConstraints.resourceRules: Required value'],
    },
    {
      name: 'neither validations nor auditAnnotations',
      spec: { validations: [] },
      want: [
        'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
        'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
      ],
    },
    {
      name: 'an empty expression and a bad reason',
      spec: { validations: [{ expression: ' ', reason: 'other' }] },
      want: [
        'spec.validations[0].expression: Required value: expression is not specified',
        'spec.validations[0].reason: Unsupported value: "other": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
      ],
    },
    {
      name: 'a message with a line break',
      spec: { validations: [{ expression: 'true', message: 'first\nsecond' }] },
      want: [
        'spec.validations[0].message: Invalid value: "first\\nsecond": message must not contain line breaks',
      ],
    },
    {
      name: 'a bad failurePolicy and paramKind',
      spec: { failurePolicy: 'Never', paramKind: { apiVersion: '!!!/v1', kind: 'Replica_Limit' } },
      want: [
        'spec.failurePolicy: Unsupported value: "Never": supported values: "Fail", "Ignore"',
        "spec.paramKind.apiVersion: Invalid value: \"!!!\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        "spec.paramKind.kind: Invalid value: \"Replica_Limit\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'rule problems',
      spec: {
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['*', 'apps'],
              apiVersions: ['v1'],
              operations: ['*', 'CREATE'],
              resources: ['*', 'pods'],
            },
          ],
          excludeResourceRules: [
            {
              apiGroups: [''],
              apiVersions: ['v1'],
              operations: ['PATCH'],
              resources: ['pods'],
              resourceNames: ['a', 'a'],
            },
          ],
        },
      },
      want: [
        'spec.matchConstraints.resourceRules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
        'spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: ["*","apps"]: if \'*\' is present, must not specify other API groups',
        'spec.matchConstraints.resourceRules[0].resources: Invalid value: ["*","pods"]: if \'*\' is present, must not specify other resources without subresources',
        'spec.matchConstraints.excludeResourceRules[0].resourceNames[1]: Duplicate value: "a"',
        'spec.matchConstraints.excludeResourceRules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      ],
    },
    {
      name: 'duplicate matchCondition names and audit keys, a bad variable name',
      spec: {
        matchConditions: [
          { name: 'a', expression: 'true' },
          { name: 'a', expression: 'true' },
        ],
        variables: [{ name: 'in', expression: '1' }],
        auditAnnotations: [
          { key: 'k', valueExpression: "'v'" },
          { key: 'k', valueExpression: "'v'" },
        ],
      },
      want: [
        'spec.matchConditions[1].name: Duplicate value: "a"',
        'spec.variables[0].name: Invalid value: "in": name is not a valid CEL identifier',
        'spec.auditAnnotations[1].key: Duplicate value: "k"',
      ],
    },
    {
      name: 'an expression that does not compile (create-time check)',
      spec: { validations: [{ expression: 'object.spec.replicas <' }] },
      want: [
        'spec.validations[0].expression: Invalid value: "object.spec.replicas <": compilation failed: ERROR: <input>:1:23: Syntax error: Unexpected token: EOF\n | object.spec.replicas <\n | ......................^',
      ],
    },
    {
      name: 'params without a paramKind, an undeclared variable, a non-bool',
      spec: {
        validations: [
          { expression: 'params.x == 1' },
          { expression: 'variables.nope' },
          { expression: '1 + 1' },
        ],
      },
      want: [
        "spec.validations[0].expression: Invalid value: \"params.x == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')\n | params.x == 1\n | ^",
        'spec.validations[1].expression: Invalid value: "variables.nope": compilation failed: ERROR: <input>:1:11: undefined field \'nope\'\n | variables.nope\n | ..........^',
        'spec.validations[2].expression: Invalid value: "1 + 1": must evaluate to bool',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(create(POLICY, policy(c.spec, c.policyName)).messages, c.want);
    });
  }

  it('an update keeps expressions the stored policy already had', () => {
    const old = policy({ validations: [{ expression: 'object.spec.replicas <' }] });
    assert.deepEqual(
      update(POLICY, { ...old, metadata: { ...old.metadata, labels: { a: 'b' } } }, old),
      [],
    );
    const changed = policy({
      validations: [{ expression: 'object.spec.replicas <' }, { expression: 'object.x <' }],
    });
    assert.equal(update(POLICY, changed, old).length, 1);
  });
});

describe('ValidatingAdmissionPolicyBinding', () => {
  it('defaults parameterNotFoundAction and match resources', () => {
    const { object, messages } = create(
      BINDING,
      binding({
        paramRef: { name: 'limits' },
        matchResources: { resourceRules: RULES.resourceRules },
      }),
    );
    assert.deepEqual(messages, []);
    const spec = object.spec as Record<string, Record<string, unknown>>;
    assert.equal(spec.paramRef?.parameterNotFoundAction, 'Deny');
    assert.equal(spec.matchResources?.matchPolicy, 'Equivalent');
    assert.deepEqual(spec.matchResources?.namespaceSelector, {});
  });

  const cases: { name: string; spec: Record<string, unknown>; want: string[] }[] = [
    { name: 'the docs example', spec: {}, want: [] },
    { name: 'Warn and Audit', spec: { validationActions: ['Warn', 'Audit'] }, want: [] },
    {
      name: 'Deny and Warn together',
      spec: { validationActions: ['Deny', 'Warn'] },
      want: [
        'spec.validationActions: Invalid value: ["Deny","Warn"]: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ],
    },
    {
      name: 'no actions, no policyName',
      spec: { validationActions: [], policyName: '' },
      want: [
        'spec.policyName: Required value',
        'spec.validationActions: Required value: at least one validation action is required',
      ],
    },
    {
      name: 'an unknown and a repeated action',
      spec: { validationActions: ['Audit', 'Audit', 'Log'] },
      want: [
        'spec.validationActions[1]: Duplicate value: "Audit"',
        'spec.validationActions[2]: Unsupported value: "Log": supported values: "Audit", "Deny", "Warn"',
      ],
    },
    {
      name: 'paramRef with name and selector',
      spec: { paramRef: { name: 'a', selector: {}, parameterNotFoundAction: 'Allow' } },
      want: [
        'spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
        'spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      ],
    },
    {
      name: 'paramRef with neither, and a bad action',
      spec: { paramRef: { parameterNotFoundAction: 'Skip' } },
      want: [
        'spec.paramRef: Required value: one of name or selector must be specified',
        'spec.paramRef.parameterNotFoundAction: Unsupported value: "Skip": supported values: "Deny", "Allow"',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(create(BINDING, binding(c.spec)).messages, c.want);
    });
  }
});
