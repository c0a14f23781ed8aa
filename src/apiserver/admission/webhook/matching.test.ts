import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { builtinResources } from '../../../api/kinds/index.js';
import type { RuleWithOperations, ValidatingWebhook } from '../../../api/model/index.js';
import { ADMIN } from '../../authentication/user.js';
import type { WebhookEntry } from './hooks.js';
import { mutatingHooks } from './hooks.js';
import {
  equivalentResources,
  isExemptFromWebhooks,
  matchRules,
  namespaceSelectorMatches,
  ruleMatches,
  selectInvocation,
} from './matching.js';
import type { AdmissionAttributes } from './types.js';

function attrs(over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subresource: '',
    kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
    namespace: 'default',
    name: 'web',
    userInfo: ADMIN,
    dryRun: false,
    ...over,
  };
}

const base: RuleWithOperations = {
  operations: ['CREATE'],
  apiGroups: ['apps'],
  apiVersions: ['v1'],
  resources: ['deployments'],
};

describe('ruleMatches', () => {
  const ns = { group: '', version: 'v1', resource: 'namespaces' };
  const cases: Array<[string, RuleWithOperations, Partial<AdmissionAttributes>, boolean]> = [
    ['exact', base, {}, true],
    ['other operation', base, { operation: 'UPDATE' }, false],
    ['operation *', { ...base, operations: ['*'] }, { operation: 'DELETE' }, true],
    ['group *', { ...base, apiGroups: ['*'] }, {}, true],
    ['other version', { ...base, apiVersions: ['v1beta1'] }, {}, false],
    [
      'resource * is not a subresource',
      { ...base, resources: ['*'] },
      { subresource: 'status' },
      false,
    ],
    [
      'deployments/status',
      { ...base, resources: ['deployments/status'] },
      { subresource: 'status' },
      true,
    ],
    ['deployments/*', { ...base, resources: ['deployments/*'] }, { subresource: 'scale' }, true],
    ['*/scale', { ...base, resources: ['*/scale'] }, { subresource: 'scale' }, true],
    ['*/* covers the main resource', { ...base, resources: ['*/*'] }, {}, true],
    ['deployments does not cover status', base, { subresource: 'status' }, false],
    ['Namespaced on a namespaced object', { ...base, scope: 'Namespaced' }, {}, true],
    ['Cluster on a namespaced object', { ...base, scope: 'Cluster' }, {}, false],
    ['Cluster on a cluster object', { ...base, scope: 'Cluster' }, { namespace: '' }, true],
    [
      'a Namespace is cluster-scoped though it carries its name',
      { ...base, apiGroups: [''], resources: ['namespaces'], scope: 'Cluster' },
      { resource: ns, namespace: 'team-a' },
      true,
    ],
    [
      'a Namespace is not Namespaced',
      { ...base, apiGroups: [''], resources: ['namespaces'], scope: 'Namespaced' },
      { resource: ns, namespace: 'team-a' },
      false,
    ],
  ];
  for (const [name, rule, over, want] of cases) {
    it(name, () => assert.equal(ruleMatches(rule, attrs(over)), want));
  }

  it('all-wildcard rules match every main-resource request (property)', () => {
    const wild: RuleWithOperations = {
      operations: ['*'],
      apiGroups: ['*'],
      apiVersions: ['*'],
      resources: ['*'],
    };
    const name = fc.stringMatching(/^[a-z]{1,8}$/);
    fc.assert(
      fc.property(
        name,
        name,
        fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT' as const),
        (group, resource, operation) =>
          ruleMatches(wild, attrs({ resource: { group, version: 'v1', resource }, operation })),
      ),
    );
  });
});

function entry(hook: Partial<ValidatingWebhook>): WebhookEntry {
  const [e] = mutatingHooks([
    {
      metadata: { name: 'c' },
      webhooks: [
        {
          name: 'h.example.com',
          admissionReviewVersions: ['v1'],
          sideEffects: 'None',
          clientConfig: { url: 'https://127.0.0.1/' },
          ...hook,
        },
      ],
    },
  ]);
  return e!;
}

describe('matchPolicy', () => {
  const hpaV1 = attrs({
    resource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
    kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
  });
  const v2Rule = {
    operations: ['CREATE'],
    apiGroups: ['autoscaling'],
    apiVersions: ['v2'],
    resources: ['horizontalpodautoscalers'],
  };

  it('HPAs are served as autoscaling/v1 and v2 from one storage', () => {
    const eq = equivalentResources(builtinResources, hpaV1.resource);
    assert.deepEqual(
      eq.map((d) => `${d.group}/${d.version}`),
      ['autoscaling/v2'],
    );
  });

  it('events are served as v1 and events.k8s.io/v1 from one storage', () => {
    const eq = equivalentResources(builtinResources, {
      group: 'events.k8s.io',
      version: 'v1',
      resource: 'events',
    });
    assert.deepEqual(
      eq.map((d) => `${d.group}/${d.version}`),
      ['/v1'],
    );
  });

  it('a resource served once has no equivalents', () => {
    assert.deepEqual(
      equivalentResources(builtinResources, { group: '', version: 'v1', resource: 'pods' }),
      [],
    );
  });

  it('Equivalent matches a v1 request to a v2 rule and invokes it as v2', () => {
    const inv = matchRules(entry({ rules: [v2Rule] }), hpaV1, builtinResources);
    assert.deepEqual(inv?.resource, {
      group: 'autoscaling',
      version: 'v2',
      resource: 'horizontalpodautoscalers',
    });
    assert.deepEqual(inv?.kind, {
      group: 'autoscaling',
      version: 'v2',
      kind: 'HorizontalPodAutoscaler',
    });
  });

  it('Exact does not', () => {
    const inv = matchRules(
      entry({ rules: [v2Rule], matchPolicy: 'Exact' }),
      hpaV1,
      builtinResources,
    );
    assert.equal(inv, undefined);
  });
});

describe('selectors', () => {
  const lookup = {
    namespace: (name: string) =>
      name === 'default' ? { metadata: { name, labels: { env: 'dev' } } } : undefined,
    resources: () => builtinResources,
  };
  const dev = entry({ namespaceSelector: { matchLabels: { env: 'dev' } } });

  it('a cluster-scoped object other than a Namespace is never exempted', () => {
    assert.equal(namespaceSelectorMatches(dev, attrs({ namespace: '' }), undefined, lookup), true);
  });

  it('a Namespace being created is matched by its own labels', () => {
    const create = attrs({
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespace: '',
      name: 'new',
    });
    const labelled = { metadata: { name: 'new', labels: { env: 'dev' } } };
    assert.equal(namespaceSelectorMatches(dev, create, labelled, lookup), true);
    assert.equal(
      namespaceSelectorMatches(dev, create, { metadata: { name: 'new' } }, lookup),
      false,
    );
  });

  it('a missing namespace is a 404 when the rules match, nothing when they do not', () => {
    const rule = { ...base, operations: ['*'] };
    const missing = attrs({ namespace: 'gone' });
    assert.throws(
      () =>
        selectInvocation(
          { ...dev, hook: { ...dev.hook, rules: [rule] } },
          missing,
          undefined,
          undefined,
          lookup,
        ),
      { message: 'namespaces "gone" not found' },
    );
    assert.equal(selectInvocation(dev, missing, undefined, undefined, lookup), undefined);
  });

  it('the object selector matches the old object on delete', () => {
    const e = entry({
      rules: [{ ...base, operations: ['DELETE'] }],
      objectSelector: { matchLabels: { app: 'web' } },
    });
    const old = { metadata: { name: 'web', labels: { app: 'web' } } };
    const inv = selectInvocation(e, attrs({ operation: 'DELETE' }), undefined, old, lookup);
    assert.ok(inv);
  });
});

describe('exemption', () => {
  for (const kind of [
    'ValidatingWebhookConfiguration',
    'MutatingWebhookConfiguration',
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
  ]) {
    it(kind, () => {
      const a = attrs({ kind: { group: 'admissionregistration.k8s.io', version: 'v1', kind } });
      assert.equal(isExemptFromWebhooks(a), true);
    });
  }
  it('other kinds are not exempt', () => assert.equal(isExemptFromWebhooks(attrs()), false));
});
