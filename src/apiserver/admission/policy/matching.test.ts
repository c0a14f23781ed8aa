import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { MatchResources, NamedRuleWithOperations } from '../../../api/model/index.js';
import { matchResources, ruleMatches } from './matching.js';
import { createRequest, deployment } from './testing.js';
import type { Operation, PolicyRequest } from './types.js';

const POD_EXEC = createRequest(
  { metadata: { name: 'web-1', namespace: 'default' } },
  {
    operation: 'CONNECT',
    kind: { group: '', version: 'v1', kind: 'PodExecOptions' },
    resource: { group: '', version: 'v1', resource: 'pods' },
    subResource: 'exec',
  },
);
const NAMESPACE = createRequest(
  { metadata: { name: 'team-a', labels: { env: 'prod' } } },
  {
    kind: { group: '', version: 'v1', kind: 'Namespace' },
    resource: { group: '', version: 'v1', resource: 'namespaces' },
    namespace: '',
  },
);

const rule = (over: Partial<NamedRuleWithOperations>): NamedRuleWithOperations => ({
  apiGroups: ['*'],
  apiVersions: ['*'],
  operations: ['*'],
  resources: ['*'],
  ...over,
});

describe('ruleMatches', () => {
  const cases: {
    name: string;
    rule: NamedRuleWithOperations;
    req: PolicyRequest;
    want: boolean;
  }[] = [
    { name: '* does not match a subresource', rule: rule({}), req: POD_EXEC, want: false },
    {
      name: '*/* matches a subresource',
      rule: rule({ resources: ['*/*'] }),
      req: POD_EXEC,
      want: true,
    },
    {
      name: 'pods/exec',
      rule: rule({ resources: ['pods/exec'], operations: ['CONNECT'] }),
      req: POD_EXEC,
      want: true,
    },
    {
      name: 'wrong operation',
      rule: rule({ resources: ['pods/*'], operations: ['CREATE'] }),
      req: POD_EXEC,
      want: false,
    },
    {
      name: 'Namespaced scope, namespaced request',
      rule: rule({ scope: 'Namespaced' }),
      req: createRequest(deployment('w', 1)),
      want: true,
    },
    {
      name: 'Cluster scope, namespaced request',
      rule: rule({ scope: 'Cluster' }),
      req: createRequest(deployment('w', 1)),
      want: false,
    },
    {
      name: 'a namespace is cluster-scoped',
      rule: rule({ scope: 'Cluster' }),
      req: NAMESPACE,
      want: true,
    },
    {
      name: 'a namespace is not Namespaced',
      rule: rule({ scope: 'Namespaced' }),
      req: NAMESPACE,
      want: false,
    },
    { name: 'core group is ""', rule: rule({ apiGroups: [''] }), req: NAMESPACE, want: true },
    {
      name: 'apps is not core',
      rule: rule({ apiGroups: [''] }),
      req: createRequest(deployment('w', 1)),
      want: false,
    },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(ruleMatches(c.rule, c.req), c.want));
  }
});

describe('matchResources', () => {
  const none = { namespace: () => undefined };
  it('a namespace request is matched by its own new labels', () => {
    const mr: MatchResources = {
      namespaceSelector: { matchLabels: { env: 'prod' } },
      resourceRules: [rule({})],
    };
    assert.equal(matchResources(mr, NAMESPACE, none).matches, true);
  });

  it('a missing namespace is an error only when the rules match', () => {
    const mr: MatchResources = {
      namespaceSelector: { matchLabels: { env: 'prod' } },
      resourceRules: [rule({})],
    };
    assert.deepEqual(matchResources(mr, createRequest(deployment('w', 1)), none), {
      matches: false,
      error: 'namespaces "default" not found',
    });
    const other: MatchResources = { ...mr, resourceRules: [rule({ apiGroups: ['batch'] })] };
    assert.deepEqual(matchResources(other, createRequest(deployment('w', 1)), none), {
      matches: false,
    });
  });

  it('Equivalent matches through another version; Exact does not', () => {
    const req = createRequest(
      { metadata: { name: 'h', namespace: 'default' } },
      {
        kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
        resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
      },
    );
    const v2 = {
      resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
      kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
    };
    const inputs = { namespace: () => undefined, equivalentResources: () => [v2] };
    const rules = [rule({ apiGroups: ['autoscaling'], apiVersions: ['v2'] })];
    const eq = matchResources({ resourceRules: rules, matchPolicy: 'Equivalent' }, req, inputs);
    assert.deepEqual(eq, { matches: true, resource: v2.resource, kind: v2.kind });
    assert.equal(
      matchResources({ resourceRules: rules, matchPolicy: 'Exact' }, req, inputs).matches,
      false,
    );
  });

  it('property: a rule in both resourceRules and excludeResourceRules never matches; alone it matches iff ruleMatches', () => {
    const ops: Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
    const word = fc.constantFrom(
      '*',
      'apps',
      '',
      'v1',
      'deployments',
      'pods',
      'pods/exec',
      '*/*',
      'CREATE',
      'DELETE',
    );
    const arbRule = fc.record({
      apiGroups: fc.array(word, { minLength: 1, maxLength: 2 }),
      apiVersions: fc.array(word, { minLength: 1, maxLength: 2 }),
      operations: fc.array(word, { minLength: 1, maxLength: 2 }),
      resources: fc.array(word, { minLength: 1, maxLength: 2 }),
      scope: fc.constantFrom('*', 'Cluster', 'Namespaced'),
    });
    fc.assert(
      fc.property(arbRule, fc.constantFrom(...ops), fc.boolean(), (r, operation, sub) => {
        const req = createRequest(deployment('w', 1), {
          operation,
          subResource: sub ? 'scale' : '',
        });
        const inputs = { namespace: () => ({ metadata: { name: 'default' } }) };
        const alone = matchResources({ resourceRules: [r] }, req, inputs).matches;
        assert.equal(alone, ruleMatches(r, req));
        const both = matchResources(
          { resourceRules: [r], excludeResourceRules: [r] },
          req,
          inputs,
        ).matches;
        assert.equal(both, false);
      }),
    );
  });
});
