/**
 * Tests for new/old ReplicaSet selection, revisions and copied annotations (upstream
 * TestEqualIgnoreHash, TestFindNewReplicaSet, TestAnnotationUtils, TestMaxRevision).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  asKind,
  type Deployment,
  type PodTemplateSpec as PodTemplate,
  type ReplicaSet,
} from '../../api/model/index.js';
import {
  appendRevisionHistory,
  equalIgnoreHash,
  findNewReplicaSet,
  findOldReplicaSets,
  maxRevision,
  newReplicaSetObject,
  parseRevision,
  REVISION_ANNOTATION,
  REVISION_HISTORY_ANNOTATION,
  replicaSetName,
  setNewReplicaSetAnnotations,
} from './replica-sets.js';

function template(image: string, labels: Record<string, string> = { app: 'web' }): PodTemplate {
  return { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } };
}

function rs(name: string, t: PodTemplate, created: string, revision?: string): ReplicaSet {
  return asKind(
    {
      metadata: {
        name,
        uid: `uid-${name}`,
        creationTimestamp: created,
        ...(revision !== undefined ? { annotations: { [REVISION_ANNOTATION]: revision } } : {}),
      },
      spec: { replicas: 1, template: t },
    },
    'ReplicaSet',
  );
}

function deployment(t: PodTemplate, annotations: Record<string, string> = {}): Deployment {
  return {
    metadata: { name: 'web', namespace: 'ns', uid: 'd-uid', annotations },
    spec: {
      replicas: 10,
      selector: { matchLabels: { app: 'web' } },
      template: t,
      strategy: {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      minReadySeconds: 5,
    },
  };
}

describe('equalIgnoreHash', () => {
  const cases: [string, PodTemplate, PodTemplate, boolean][] = [
    ['same', template('a'), template('a'), true],
    [
      'hash label ignored',
      template('a', { app: 'web', 'pod-template-hash': 'x' }),
      template('a'),
      true,
    ],
    [
      'different hash labels ignored',
      template('a', { app: 'web', 'pod-template-hash': 'x' }),
      template('a', { app: 'web', 'pod-template-hash': 'y' }),
      true,
    ],
    ['image differs', template('a'), template('b'), false],
    ['other label differs', template('a', { app: 'web', v: '1' }), template('a'), false],
    [
      'empty map equals absent',
      { ...template('a'), metadata: { labels: { app: 'web' }, annotations: {} } },
      template('a'),
      true,
    ],
  ];
  for (const [name, a, b, want] of cases) {
    it(name, () => assert.equal(equalIgnoreHash(a, b), want));
  }
});

describe('findNewReplicaSet / findOldReplicaSets', () => {
  it('picks the oldest matching RS and calls every other one old', () => {
    const d = deployment(template('b'));
    const rss = [
      rs('young', template('b'), '2024-01-03T00:00:00Z'),
      rs('old', template('a'), '2024-01-01T00:00:00Z'),
      rs('elder', template('b'), '2024-01-02T00:00:00Z'),
    ];
    assert.equal(findNewReplicaSet(d, rss)?.metadata?.name, 'elder');
    assert.deepEqual(
      findOldReplicaSets(d, rss).map((r) => r.metadata?.name),
      ['young', 'old'],
    );
  });
  it('finds none when no template matches', () => {
    assert.equal(
      findNewReplicaSet(deployment(template('c')), [rs('a', template('a'), '')]),
      undefined,
    );
  });
});

describe('maxRevision', () => {
  it('skips unparsable revisions and counts absent as 0', () => {
    const rss = [
      rs('a', template('a'), '', '3'),
      rs('b', template('a'), '', 'x'),
      rs('c', template('a'), ''),
    ];
    assert.equal(maxRevision(rss), 3n);
    assert.equal(maxRevision([]), 0n);
  });
});

describe('revisions are int64 (Go strconv.ParseInt)', () => {
  const cases: [string, bigint | undefined][] = [
    ['1', 1n],
    ['+7', 7n],
    ['-3', -3n],
    ['3546343826724305832', 3546343826724305832n],
    ['9223372036854775807', 9223372036854775807n],
    ['9223372036854775808', undefined],
    ['-9223372036854775808', -9223372036854775808n],
    ['1.5', undefined],
    ['', undefined],
    ['x', undefined],
  ];
  for (const [text, want] of cases) {
    it(`${JSON.stringify(text)} → ${want}`, () => assert.equal(parseRevision(text), want));
  }

  it('the next revision after 3546343826724305832 is …833, not a rounded number', () => {
    const rss = [
      rs('a', template('a'), '', '3546343826724305832'),
      rs('b', template('b'), '', '2'),
    ];
    assert.equal(maxRevision(rss) + 1n, 3546343826724305833n);
    const r = rs('c', template('c'), '', '3546343826724305832');
    assert.equal(
      setNewReplicaSetAnnotations(deployment(template('c')), r, 3546343826724305833n, true),
      true,
    );
    assert.equal(r.metadata?.annotations?.[REVISION_ANNOTATION], '3546343826724305833');
  });
});

describe('appendRevisionHistory', () => {
  const cases: [string, string, number, string | undefined][] = [
    ['', '1', 2000, '1'],
    ['1,2', '3', 2000, '1,2,3'],
    ['1,2,3', '4', 5, '2,3,4'],
    ['1,2,3', '4', 4, '3,4'],
    ['1', '22222', 3, undefined],
  ];
  for (const [history, old, limit, want] of cases) {
    it(`${JSON.stringify(history)} + ${old} (limit ${limit})`, () =>
      assert.equal(appendRevisionHistory(history, old, limit), want));
  }
});

describe('setNewReplicaSetAnnotations', () => {
  it('copies deployment annotations except the skipped ones, stamps revision and replicas on create', () => {
    const d = deployment(template('a'), {
      team: 'x',
      [REVISION_ANNOTATION]: '9',
      'kubectl.kubernetes.io/last-applied-configuration': '{}',
    });
    const r: ReplicaSet = { metadata: { name: 'r' } };
    assert.equal(setNewReplicaSetAnnotations(d, r, 4n, false), true);
    assert.deepEqual(r.metadata?.annotations, {
      team: 'x',
      [REVISION_ANNOTATION]: '4',
      'deployment.kubernetes.io/desired-replicas': '10',
      'deployment.kubernetes.io/max-replicas': '13',
    });
  });
  it('records the previous revision when a rollback raises it', () => {
    const r = rs('r', template('a'), '', '2');
    r.metadata = {
      ...r.metadata,
      annotations: { [REVISION_ANNOTATION]: '2', [REVISION_HISTORY_ANNOTATION]: '1' },
    };
    assert.equal(setNewReplicaSetAnnotations(deployment(template('a')), r, 5n, true), true);
    assert.equal(r.metadata?.annotations?.[REVISION_ANNOTATION], '5');
    assert.equal(r.metadata?.annotations?.[REVISION_HISTORY_ANNOTATION], '1,2');
  });
  it('changes nothing when the revision is already the highest', () => {
    const r = rs('r', template('a'), '', '7');
    assert.equal(setNewReplicaSetAnnotations(deployment(template('a')), r, 5n, true), false);
    assert.equal(r.metadata?.annotations?.[REVISION_ANNOTATION], '7');
  });
  it('gives up on an unparsable revision', () => {
    const r = rs('r', template('a'), '', 'abc');
    assert.equal(
      setNewReplicaSetAnnotations(deployment(template('a'), { team: 'x' }), r, 5n, true),
      false,
    );
  });
});

describe('newReplicaSetObject', () => {
  it('names by hash, labels template and selector, owns by controllerRef', () => {
    const d = deployment(template('a'));
    const r = newReplicaSetObject(d);
    const hash = r.metadata?.labels?.['pod-template-hash'] ?? '';
    assert.match(hash, /^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    assert.equal(r.metadata?.name, `web-${hash}`);
    assert.equal(r.spec?.template?.metadata?.labels?.['pod-template-hash'], hash);
    assert.deepEqual(r.spec?.selector, { matchLabels: { app: 'web', 'pod-template-hash': hash } });
    assert.equal(r.spec?.minReadySeconds, 5);
    assert.equal(r.metadata?.ownerReferences?.[0]?.uid, 'd-uid');
    assert.equal(r.metadata?.ownerReferences?.[0]?.controller, true);
    assert.equal(d.spec?.template?.metadata?.labels?.['pod-template-hash'], undefined);
  });
  it('changes the hash with the collision count', () => {
    const d = deployment(template('a'));
    const other = { ...d, status: { collisionCount: 1 } };
    assert.notEqual(
      newReplicaSetObject(d).metadata?.name,
      newReplicaSetObject(other).metadata?.name,
    );
  });
  it('keeps names within 253 characters', () => {
    const name = replicaSetName('x'.repeat(260), 'abcde');
    assert.equal(name.length, 253);
    assert.ok(name.endsWith('-abcde'));
  });
});
