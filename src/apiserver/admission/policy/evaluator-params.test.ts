import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../../api/model/index.js';
import type { Authorizer } from '../../authorization/types.js';
import { evaluatePolicies } from './evaluator.js';
import { binding, createRequest, deployment, type FakeCluster, inputs, policy } from './testing.js';
import type { PolicyRequest } from './types.js';

const PREFIX = 'deployments.apps "web" is forbidden: ';

const withParams = (
  name: string,
  validations: { expression: string; messageExpression?: string }[],
) => policy(name, { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations });

const LIMITS: FakeCluster = {
  params: {
    'v1/ConfigMap': [
      {
        metadata: { name: 'small', namespace: 'default', labels: { tier: 'a' } },
        data: { max: '3' },
      },
      {
        metadata: { name: 'large', namespace: 'default', labels: { tier: 'b' } },
        data: { max: '10' },
      },
      {
        metadata: { name: 'tiny', namespace: 'default', labels: { tier: 'b' } },
        data: { max: '1' },
      },
    ],
  },
};
const PARAM_CHECK = [
  {
    expression: 'object.spec.replicas <= int(params.data.max)',
    messageExpression: "'at most ' + params.data.max + ' replicas (' + params.metadata.name + ')'",
  },
];

const cases: {
  readonly name: string;
  readonly policies: readonly ValidatingAdmissionPolicy[];
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[];
  readonly request: PolicyRequest;
  readonly cluster?: FakeCluster;
  readonly denied?: string;
  readonly warnings?: readonly string[];
}[] = [
  {
    name: 'params by name',
    policies: [withParams('p.example.com', PARAM_CHECK)],
    bindings: [
      binding('b', 'p.example.com', {
        paramRef: { name: 'small', parameterNotFoundAction: 'Deny' },
      }),
    ],
    request: createRequest(deployment('web', 4)),
    cluster: LIMITS,
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: at most 3 replicas (small)`,
  },
  {
    name: 'params by selector: every selected param is evaluated, the first denial answers',
    policies: [withParams('p.example.com', PARAM_CHECK)],
    bindings: [
      binding('b', 'p.example.com', {
        paramRef: { selector: { matchLabels: { tier: 'b' } }, parameterNotFoundAction: 'Deny' },
        validationActions: ['Warn'],
      }),
    ],
    request: createRequest(deployment('web', 4)),
    cluster: LIMITS,
    warnings: [
      "Validation failed for ValidatingAdmissionPolicy 'p.example.com' with binding 'b': at most 1 replicas (tiny)",
    ],
  },
  {
    name: 'param not found with Deny',
    policies: [withParams('p.example.com', PARAM_CHECK)],
    bindings: [
      binding('b', 'p.example.com', {
        paramRef: { name: 'absent', parameterNotFoundAction: 'Deny' },
      }),
    ],
    request: createRequest(deployment('web', 1)),
    cluster: LIMITS,
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: failed to configure binding: no params found for policy binding with \`Deny\` parameterNotFoundAction`,
  },
  {
    name: 'param not found with Allow: nothing is evaluated',
    policies: [withParams('p.example.com', [{ expression: 'false' }])],
    bindings: [
      binding('b', 'p.example.com', {
        paramRef: { name: 'absent', parameterNotFoundAction: 'Allow' },
      }),
    ],
    request: createRequest(deployment('web', 1)),
    cluster: LIMITS,
  },
  {
    name: 'unknown paramKind is a policy configuration error',
    policies: [
      policy('p.example.com', {
        paramKind: { apiVersion: 'example.com/v1', kind: 'Limit' },
        validations: [{ expression: 'true' }],
      }),
    ],
    bindings: [
      binding('b', 'p.example.com', { paramRef: { name: 'x', parameterNotFoundAction: 'Deny' } }),
    ],
    request: createRequest(deployment('web', 1)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' denied request: failed to configure policy: failed to find resource referenced by paramKind: 'example.com/v1, Kind=Limit'`,
  },
  {
    name: 'variables are composited and reusable',
    policies: [
      policy('p.example.com', {
        variables: [
          { name: 'replicas', expression: 'object.spec.replicas' },
          { name: 'tooMany', expression: 'variables.replicas > 3' },
        ],
        validations: [
          {
            expression: '!variables.tooMany',
            messageExpression: "'replicas: ' + string(variables.replicas)",
          },
        ],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 4)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: replicas: 4`,
  },
  {
    name: "a variable's error is the error of the expression using it",
    policies: [
      policy('p.example.com', {
        variables: [{ name: 'image', expression: 'object.spec.template.spec.containers[0].image' }],
        validations: [{ expression: "variables.image != 'bad'" }],
      }),
    ],
    bindings: [binding('b', 'p.example.com')],
    request: createRequest(deployment('web', 4)),
    denied: `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: expression 'variables.image != 'bad'' resulted in error: composited variable "image" fails to evaluate: no such key: template`,
  },
];

describe('evaluatePolicies: params, variables, the authorizer, cost', () => {
  for (const c of cases) {
    it(c.name, () => {
      const out = evaluatePolicies(inputs(c.policies, c.bindings, c.cluster), c.request);
      assert.equal(out.denied?.message, c.denied);
      assert.deepEqual(out.warnings, c.warnings ?? []);
    });
  }

  it('exposes request and the authorizer to expressions', () => {
    const seen: string[] = [];
    const authorizer: Authorizer = {
      authorize: (a) => {
        seen.push(`${a.user.username} ${a.verb} ${a.apiGroup}/${a.resource} ${a.namespace}`);
        return { decision: a.verb === 'delete' ? 'Allow' : 'NoOpinion', reason: 'test' };
      },
    };
    const p = policy('p.example.com', {
      validations: [
        {
          expression:
            "authorizer.group('apps').resource('deployments').namespace(request.namespace).check('escalate').allowed()",
          messageExpression:
            "request.userInfo.username + ' may not escalate in ' + request.namespace",
        },
        { expression: "authorizer.requestResource.check('delete').allowed()" },
      ],
    });
    const out = evaluatePolicies(
      inputs([p], [binding('b', 'p.example.com')], {}, { authorizer }),
      createRequest(deployment('web', 1)),
    );
    assert.equal(
      out.denied?.message,
      `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: alice may not escalate in default`,
    );
    assert.deepEqual(seen, [
      'alice escalate apps/deployments default',
      'alice delete apps/deployments default',
    ]);
  });

  it('an expression past the per-call cost limit fails under the failurePolicy', () => {
    const expr =
      'object.spec.items.all(x, object.spec.items.all(y, object.spec.items.all(z, x + y + z >= 0)))';
    const p = policy('p.example.com', { validations: [{ expression: expr }] });
    const obj = {
      ...deployment('web', 1),
      spec: { items: Array.from({ length: 200 }, (_, i) => i) },
    };
    const out = evaluatePolicies(inputs([p], [binding('b', 'p.example.com')]), createRequest(obj));
    assert.equal(
      out.denied?.message,
      `${PREFIX}ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: expression '${expr}' resulted in error: operation cancelled: actual cost limit exceeded`,
    );
  });

  it('a namespaced param with a cluster-scoped request and no paramRef namespace is a binding error', () => {
    const p = policy('p.example.com', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: ['namespaces'],
          },
        ],
      },
      validations: [{ expression: 'true' }],
    });
    const req = createRequest(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } },
      {
        kind: { group: '', version: 'v1', kind: 'Namespace' },
        resource: { group: '', version: 'v1', resource: 'namespaces' },
        namespace: '',
      },
    );
    const b = binding('b', 'p.example.com', {
      paramRef: { name: 'small', parameterNotFoundAction: 'Deny' },
    });
    const out = evaluatePolicies(inputs([p], [b], LIMITS), req);
    assert.equal(
      out.denied?.message,
      `namespaces "team-a" is forbidden: ValidatingAdmissionPolicy 'p.example.com' with binding 'b' denied request: failed to configure binding: cannot use namespaced paramRef in policy binding that matches cluster-scoped resources`,
    );
  });
});
