import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Pod } from '../../api/model/index.js';
import {
  claimName,
  claimsFor,
  hostIdentity,
  identityMatches,
  isMemberOf,
  newStatefulSetPod,
  ordinalInSet,
  POD_INDEX_LABEL,
  POD_NAME_LABEL,
  parentAndOrdinal,
  podName,
  storageMatches,
  withIdentity,
  withStorage,
} from './identity.js';
import { makeSet } from './testing/plan-fixtures.js';

describe('pod names and ordinals', () => {
  const cases: Array<[string, string, number]> = [
    ['web-0', 'web', 0],
    ['web-12', 'web', 12],
    ['my-web-3', 'my-web', 3],
    ['web-1-2', 'web-1', 2],
    ['web', '', -1],
    ['web-', '', -1],
    ['web-x', '', -1],
    ['web-2147483647', 'web', 2147483647],
    ['web-2147483648', 'web', -1],
  ];
  for (const [name, parent, ordinal] of cases) {
    it(`${name} → parent ${JSON.stringify(parent)}, ordinal ${ordinal}`, () => {
      assert.deepEqual(parentAndOrdinal(name), { parent, ordinal });
    });
  }

  it('keeps only the set’s own pods', () => {
    const table: Array<[string, number]> = [
      ['web-4', 4],
      ['webx-4', -1],
      ['web-4-1', -1],
      ['foo', -1],
    ];
    for (const [name, want] of table) assert.equal(ordinalInSet('web', name), want, name);
    const set = makeSet();
    assert.equal(isMemberOf(set, { metadata: { name: 'web-9' } }), true);
    assert.equal(isMemberOf(set, { metadata: { name: 'foo' } }), false);
  });

  it('names pods, claims and DNS identity', () => {
    assert.equal(podName('web', 5), 'web-5');
    assert.equal(claimName('www', 'web', 5), 'www-web-5');
    assert.deepEqual(hostIdentity(makeSet(), 2), { hostname: 'web-2', subdomain: 'nginx' });
  });
});

describe('claimsFor', () => {
  it('names each template’s claim for the ordinal, selector labels win', () => {
    const set = makeSet({ claims: ['www', 'logs'] });
    const first = set.spec?.volumeClaimTemplates?.[0];
    if (first?.metadata) first.metadata.labels = { app: 'other', tier: 'disk' };
    const claims = claimsFor(set, 7);
    assert.deepEqual(
      claims.map((c) => [c.metadata?.name, c.metadata?.namespace, c.metadata?.labels]),
      [
        ['www-web-7', 'default', { app: 'nginx', tier: 'disk' }],
        ['logs-web-7', 'default', { app: 'nginx' }],
      ],
    );
    // The template itself is untouched.
    assert.equal(first?.metadata?.name, 'www');
  });
});

describe('newStatefulSetPod', () => {
  it('builds the member from the template with its identity', () => {
    const set = makeSet({ claims: ['www'], start: 3 });
    const pod = newStatefulSetPod(set, 'web-abc', 4);
    assert.equal(pod.metadata?.name, 'web-4');
    assert.equal(pod.metadata?.namespace, 'default');
    assert.deepEqual(pod.metadata?.labels, {
      app: 'nginx',
      [POD_NAME_LABEL]: 'web-4',
      [POD_INDEX_LABEL]: '4',
      'controller-revision-hash': 'web-abc',
    });
    assert.deepEqual(pod.metadata?.ownerReferences, [
      {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        name: 'web',
        uid: 'set-uid',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    const spec = pod.spec as Record<string, unknown>;
    assert.equal(spec.hostname, 'web-4');
    assert.equal(spec.subdomain, 'nginx');
    assert.deepEqual(spec.volumes, [
      { name: 'www', persistentVolumeClaim: { claimName: 'www-web-4', readOnly: false } },
    ]);
    assert.equal(identityMatches(set, pod), true);
    assert.equal(storageMatches(set, pod), true);
  });

  it('replaces a template volume of a claim’s name and keeps the others', () => {
    const set = makeSet({ claims: ['www'] });
    const tpl = (set.spec as { template: { spec: Record<string, unknown> } }).template.spec;
    tpl.volumes = [
      { name: 'www', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'c' } },
    ];
    const spec = newStatefulSetPod(set, 'r', 0).spec as Record<string, unknown>;
    assert.deepEqual(spec.volumes, [
      { name: 'www', persistentVolumeClaim: { claimName: 'www-web-0', readOnly: false } },
      { name: 'cfg', configMap: { name: 'c' } },
    ]);
  });
});

describe('identityMatches / storageMatches and repair', () => {
  const set = makeSet({ claims: ['www'] });
  const good = newStatefulSetPod(set, 'r', 1);
  const mutate = (f: (p: Pod) => void): Pod => {
    const p = structuredClone(good);
    f(p);
    return p;
  };
  const cases: Array<[string, Pod, boolean, boolean]> = [
    ['intact', good, true, true],
    [
      'pod-name label missing',
      mutate((p) => delete p.metadata?.labels?.[POD_NAME_LABEL]),
      false,
      true,
    ],
    [
      'other namespace',
      mutate((p) => {
        if (p.metadata) p.metadata.namespace = 'x';
      }),
      false,
      true,
    ],
    [
      'pod-index label missing (not checked upstream)',
      mutate((p) => delete p.metadata?.labels?.[POD_INDEX_LABEL]),
      true,
      true,
    ],
    [
      'claim volume missing',
      mutate((p) => {
        (p.spec as Record<string, unknown>).volumes = [];
      }),
      true,
      false,
    ],
    [
      'claim volume on the wrong claim',
      mutate((p) => {
        (p.spec as Record<string, unknown>).volumes = [
          { name: 'www', persistentVolumeClaim: { claimName: 'www-web-9' } },
        ];
      }),
      true,
      false,
    ],
  ];
  for (const [name, pod, identity, storage] of cases) {
    it(name, () => {
      assert.equal(identityMatches(set, pod), identity);
      assert.equal(storageMatches(set, pod), storage);
      const repaired = withStorage(set, withIdentity(set, pod));
      assert.equal(identityMatches(set, repaired), true);
      assert.equal(storageMatches(set, repaired), true);
    });
  }

  it('an unparsable pod never matches', () => {
    const pod = {
      metadata: { name: 'web', namespace: 'default', labels: { [POD_NAME_LABEL]: 'web' } },
    };
    assert.equal(identityMatches(set, pod), false);
    assert.equal(storageMatches(set, pod), false);
  });
});
