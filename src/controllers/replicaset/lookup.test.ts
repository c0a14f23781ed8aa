/**
 * Table tests of the ReplicaSet/pod lookups: selector matching, controllerRef resolution, related pods.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asKind, type Pod, type ReplicaSet } from '../../api/model/index.js';
import {
  controllerUidIndexFunc,
  podReplicaSets,
  type ReplicaSetLookup,
  relatedPods,
  resolveControllerRef,
} from './lookup.js';

function rs(name: string, selector: unknown, owner?: string): ReplicaSet {
  return asKind(
    {
      metadata: {
        name,
        namespace: 'ns',
        uid: `uid-${name}`,
        ...(owner
          ? {
              ownerReferences: [
                {
                  apiVersion: 'apps/v1',
                  kind: 'Deployment',
                  name: 'd',
                  uid: owner,
                  controller: true,
                },
              ],
            }
          : {}),
      },
      spec: { selector },
    },
    'ReplicaSet',
  );
}

function pod(name: string, labels: Record<string, string>, ns = 'ns'): Pod {
  return asKind({ metadata: { name, namespace: ns, uid: `uid-${name}`, labels } }, 'Pod');
}

const WEB = rs('web', { matchLabels: { app: 'web' } }, 'dep');
const WEB2 = rs('web2', { matchLabels: { app: 'web', v: '2' } }, 'dep');
const EMPTY = rs('empty', {});
const NIL = rs('nil', null);
const BAD = rs('bad', { matchExpressions: [{ key: 'app', operator: 'Bogus' }] });
const ALL = [WEB, WEB2, EMPTY, NIL, BAD];
const lookup: ReplicaSetLookup = {
  get: (ns, name) => ALL.find((r) => ns === 'ns' && r.metadata?.name === name),
  listInNamespace: (ns) => (ns === 'ns' ? ALL : []),
};

describe('podReplicaSets', () => {
  const cases: [string, Pod, string[]][] = [
    [
      'matches by selector; empty, nil and invalid selectors match nothing',
      pod('p', { app: 'web' }),
      ['web'],
    ],
    ['both ReplicaSets whose selectors hold', pod('p', { app: 'web', v: '2' }), ['web', 'web2']],
    ['no labels: none', pod('p', {}), []],
    ['other namespace: none', pod('p', { app: 'web' }, 'other'), []],
  ];
  for (const [name, p, want] of cases) {
    it(name, () =>
      assert.deepEqual(
        podReplicaSets(lookup, p).map((r) => r.metadata?.name),
        want,
      ),
    );
  }
});

describe('resolveControllerRef', () => {
  const ref = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    name: 'web',
    uid: 'uid-web',
    controller: true,
  };
  const cases: [string, typeof ref, string | undefined][] = [
    ['name and uid match', ref, 'web'],
    ['uid differs (a namesake)', { ...ref, uid: 'x' }, undefined],
    ['wrong kind', { ...ref, kind: 'Deployment' }, undefined],
    ['not cached', { ...ref, name: 'zz' }, undefined],
  ];
  for (const [name, r, want] of cases) {
    it(name, () => assert.equal(resolveControllerRef(lookup, 'ns', r)?.metadata?.name, want));
  }
});

describe('relatedPods and the controller-UID index', () => {
  it('indexes ReplicaSets by their controller', () => {
    assert.deepEqual(controllerUidIndexFunc(WEB), ['dep']);
    assert.deepEqual(controllerUidIndexFunc(EMPTY), []);
  });
  const pods = [
    pod('a', { app: 'web' }),
    pod('b', { app: 'web', v: '2' }),
    pod('c', { app: 'db' }),
  ];
  const cases: [string, ReplicaSet, ReplicaSet[], string[]][] = [
    ['pods of every sibling, each once', WEB, [WEB, WEB2], ['a', 'b']],
    ['no controller: no related pods', EMPTY, [EMPTY], []],
    ['invalid sibling selector is skipped', WEB2, [BAD, WEB2], ['b']],
  ];
  for (const [name, owner, siblings, want] of cases) {
    it(name, () =>
      assert.deepEqual(
        relatedPods(owner, siblings, pods).map((p) => p.metadata?.name),
        want,
      ),
    );
  }
});
