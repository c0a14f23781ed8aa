import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../../api/model/index.js';
import { evaluatePolicies, VALIDATION_FAILURE_ANNOTATION } from './evaluator.js';
import { binding, createRequest, deployment, type FakeCluster, inputs, policy } from './testing.js';
import type { PolicyRequest } from './types.js';

const MAX5 = policy('demo-policy.example.com', {
  validations: [{ expression: 'object.spec.replicas <= 5' }],
});
const PREFIX = 'deployments.apps "web" is forbidden: ';
const DENIED =
  "ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: ";

interface Case {
  readonly name: string;
  readonly policies: readonly ValidatingAdmissionPolicy[];
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[];
  readonly request: PolicyRequest;
  readonly cluster?: FakeCluster;
  /** The denial's message, or undefined when admitted. */
  readonly denied?: string;
  readonly code?: number;
  readonly warnings?: readonly string[];
  readonly annotations?: Readonly<Record<string, string>>;
}

const cases: Case[] = [
  {
    name: 'deny with the expression as message (upstream docs example)',
    policies: [MAX5],
    bindings: [binding('demo-binding-test.example.com', MAX5.metadata?.name ?? '')],
    request: createRequest(deployment('web', 6)),
    denied: `${PREFIX}${DENIED}failed expression: object.spec.replicas <= 5`,
    code: 422,
  },
  {
    name: 'admitted when the validation holds',
    policies: [MAX5],
    bindings: [binding('demo-binding-test.example.com', 'demo-policy.example.com')],
    request: createRequest(deployment('web', 5)),
  },
  {
    name: 'message, and reason Forbidden gives 403',
    policies: [
      policy('demo-policy.example.com', {
        validations: [
          { expression: 'object.spec.replicas <= 5', message: 'too many', reason: 'Forbidden' },
        ],
      }),
    ],
    bindings: [binding('demo-binding-test.example.com', 'demo-policy.example.com')],
    request: createRequest(deployment('web', 6)),
    denied: `${PREFIX}${DENIED}too many`,
    code: 403,
  },
  {
    name: 'messageExpression wins over message; a blank one falls back to message',
    policies: [
      policy('demo-policy.example.com', {
        validations: [
          {
            expression: 'object.spec.replicas <= 5',
            message: 'static',
            messageExpression: "'replicas ' + string(object.spec.replicas) + ' > 5'",
          },
        ],
      }),
      policy('second.example.com', {
        validations: [{ expression: 'false', message: 'fallback', messageExpression: "'  '" }],
      }),
    ],
    bindings: [
      binding('demo-binding-test.example.com', 'demo-policy.example.com', {
        validationActions: ['Warn'],
      }),
      binding('b2', 'second.example.com', { validationActions: ['Warn'] }),
    ],
    request: createRequest(deployment('web', 6)),
    warnings: [
      "Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com': replicas 6 > 5",
      "Validation failed for ValidatingAdmissionPolicy 'second.example.com' with binding 'b2': fallback",
    ],
  },
  {
    name: 'Audit: the validation_failure annotation and the policy audit annotations',
    policies: [
      policy('demo-policy.example.com', {
        validations: [{ expression: 'object.spec.replicas <= 5' }],
        auditAnnotations: [
          {
            key: 'high-replica-count',
            valueExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)",
          },
          { key: 'skipped', valueExpression: 'null' },
        ],
      }),
    ],
    bindings: [
      binding('demo-binding-test.example.com', 'demo-policy.example.com', {
        validationActions: ['Audit'],
      }),
    ],
    request: createRequest(deployment('web', 6)),
    annotations: {
      [VALIDATION_FAILURE_ANNOTATION]:
        '[{"message":"failed expression: object.spec.replicas <= 5","policy":"demo-policy.example.com","binding":"demo-binding-test.example.com","expressionIndex":0,"validationActions":["Audit"]}]',
      'demo-policy.example.com/high-replica-count': 'Deployment spec.replicas set to 6',
    },
  },
  {
    name: 'Deny and Audit together',
    policies: [MAX5],
    bindings: [
      binding('demo-binding-test.example.com', 'demo-policy.example.com', {
        validationActions: ['Deny', 'Audit'],
      }),
    ],
    request: createRequest(deployment('web', 9)),
    denied: `${PREFIX}${DENIED}failed expression: object.spec.replicas <= 5`,
    annotations: {
      [VALIDATION_FAILURE_ANNOTATION]:
        '[{"message":"failed expression: object.spec.replicas <= 5","policy":"demo-policy.example.com","binding":"demo-binding-test.example.com","expressionIndex":0,"validationActions":["Deny","Audit"]}]',
    },
  },
  {
    name: 'matchConditions all true: the policy applies',
    policies: [
      policy('p.example.com', {
        matchConditions: [
          { name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" },
          { name: 'create', expression: "request.operation == 'CREATE'" },
        ],
        validations: [{ expression: 'false', message: 'no' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: no`,
  },
  {
    name: 'a false matchCondition skips the policy even after an error',
    policies: [
      policy('p.example.com', {
        matchConditions: [
          { name: 'broken', expression: 'object.spec.nothing == 1' },
          { name: 'never', expression: "request.userInfo.username == 'bob'" },
        ],
        validations: [{ expression: 'false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
  },
  {
    name: 'a matchCondition error with failurePolicy Fail denies',
    policies: [
      policy('p.example.com', {
        matchConditions: [{ name: 'broken', expression: 'object.spec.nothing == 1' }],
        validations: [{ expression: 'true' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: expression 'object.spec.nothing == 1' resulted in error: no such key: nothing`,
  },
  {
    name: 'a matchCondition error with failurePolicy Ignore skips',
    policies: [
      policy('p.example.com', {
        failurePolicy: 'Ignore',
        matchConditions: [{ name: 'broken', expression: 'object.spec.nothing == 1' }],
        validations: [{ expression: 'false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
  },
  {
    name: 'runtime error with failurePolicy Fail denies with the error',
    policies: [
      policy('p.example.com', {
        validations: [{ expression: 'object.spec.template.spec.hostNetwork == false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: expression 'object.spec.template.spec.hostNetwork == false' resulted in error: no such key: template`,
  },
  {
    name: 'runtime error with failurePolicy Ignore admits',
    policies: [
      policy('p.example.com', {
        failurePolicy: 'Ignore',
        validations: [{ expression: 'object.spec.template.spec.hostNetwork == false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
  },
  {
    name: 'excludeResourceRules take precedence',
    policies: [
      policy('p.example.com', {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] },
          ],
          excludeResourceRules: [
            {
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              operations: ['*'],
              resources: ['deployments'],
              resourceNames: ['web'],
            },
          ],
        },
        validations: [{ expression: 'false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
  },
  {
    name: 'namespaceSelector not matching skips',
    policies: [
      policy('p.example.com', {
        matchConstraints: {
          ...MAX5.spec?.matchConstraints,
          namespaceSelector: { matchLabels: { env: 'prod' } },
        },
        validations: [{ expression: 'false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
  },
  {
    name: 'namespaceSelector matching the namespace labels applies; namespaceObject is visible',
    policies: [
      policy('p.example.com', {
        matchConstraints: {
          ...MAX5.spec?.matchConstraints,
          namespaceSelector: {
            matchExpressions: [{ key: 'env', operator: 'In', values: ['dev'] }],
          },
        },
        validations: [
          {
            expression: "namespaceObject.metadata.labels.env != 'dev'",
            messageExpression: "'not in ' + namespaceObject.metadata.name",
          },
        ],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: not in default`,
  },
  {
    name: "a binding's matchResources narrow the policy",
    policies: [policy('p.example.com', { validations: [{ expression: 'false' }] })],
    bindings: [
      binding('b', 'p.example.com', {
        matchResources: { objectSelector: { matchLabels: { enforce: 'yes' } } },
      }),
    ],
    request: createRequest(deployment('web', 1, { enforce: 'no' })),
  },
  {
    name: 'DELETE: object is null and oldObject is the stored object; the name reads Unknown',
    policies: [
      policy('p.example.com', {
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              operations: ['DELETE'],
              resources: ['deployments'],
            },
          ],
        },
        validations: [
          {
            expression: "object == null && oldObject.metadata.labels.protected != 'true'",
            messageExpression: "oldObject.metadata.name + ' is protected'",
          },
        ],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 1), {
      operation: 'DELETE',
      object: null,
      oldObject: deployment('web', 1, { protected: 'true' }),
    }),
    denied: `deployments.apps "Unknown" is forbidden: ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: web is protected`,
  },
  {
    name: 'an auditAnnotation of the wrong type denies under Fail',
    policies: [
      policy('p.example.com', {
        auditAnnotations: [{ key: 'count', valueExpression: 'object.spec.replicas' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 4)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: valueExpression 'object.spec.replicas' resulted in unsupported return type: int. Return type must be either string or null.`,
  },
  {
    name: 'policies never judge admission configuration',
    policies: [
      policy('p.example.com', {
        matchConstraints: {
          resourceRules: [
            { apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] },
          ],
        },
        validations: [{ expression: 'false' }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(
      { metadata: { name: 'b' } },
      {
        kind: {
          group: 'admissionregistration.k8s.io',
          version: 'v1',
          kind: 'ValidatingAdmissionPolicyBinding',
        },
        resource: {
          group: 'admissionregistration.k8s.io',
          version: 'v1',
          resource: 'validatingadmissionpolicybindings',
        },
        namespace: '',
      },
    ),
  },
  {
    name: 'a policy without bindings does nothing',
    policies: [MAX5],
    bindings: [],
    request: createRequest(deployment('web', 60)),
  },
];

describe('evaluatePolicies', () => {
  for (const c of cases) {
    it(c.name, () => {
      const out = evaluatePolicies(inputs(c.policies, c.bindings, c.cluster), c.request);
      assert.equal(out.denied?.message, c.denied);
      if (c.code !== undefined) assert.equal(out.denied?.code, c.code);
      assert.deepEqual(out.warnings, c.warnings ?? []);
      assert.deepEqual(out.auditAnnotations, c.annotations ?? {});
    });
  }

  it('shapes the denial as upstream: reason, code, details and the cause', () => {
    const out = evaluatePolicies(
      inputs([MAX5], [binding('demo-binding-test.example.com', 'demo-policy.example.com')]),
      createRequest(deployment('web', 6)),
    );
    assert.deepEqual(out.denied?.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `${PREFIX}${DENIED}failed expression: object.spec.replicas <= 5`,
      reason: 'Invalid',
      code: 422,
      details: {
        name: 'web',
        group: 'apps',
        kind: 'deployments',
        causes: [{ message: `${DENIED}failed expression: object.spec.replicas <= 5` }],
      },
    });
  });
});
