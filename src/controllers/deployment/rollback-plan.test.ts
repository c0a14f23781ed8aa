/**
 * Tests for the legacy rollback annotation (upstream `rollback.go`, `TestLastRevision`,
 * `TestSetDeploymentAnnotationsTo`): which revision, which template, which annotations, which
 * event, for every outcome.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  asKind,
  type Deployment,
  type PodTemplateSpec as PodTemplate,
  type ReplicaSet,
} from '../../api/model/index.js';
import { REVISION_ANNOTATION } from './replica-sets.js';
import {
  getRollbackTo,
  lastRevision,
  planRollback,
  ROLLBACK_TO_ANNOTATION,
} from './rollback-plan.js';

function template(image: string, hash?: string): PodTemplate {
  const labels: Record<string, string> = { app: 'web' };
  if (hash !== undefined) labels['pod-template-hash'] = hash;
  return { metadata: { labels }, spec: { containers: [{ name: 'c', image }] } };
}

function rs(
  image: string,
  revision?: string,
  annotations: Record<string, string> = {},
): ReplicaSet {
  return asKind(
    {
      metadata: {
        name: `web-${image}`,
        annotations: {
          ...annotations,
          ...(revision === undefined ? {} : { [REVISION_ANNOTATION]: revision }),
        },
      },
      spec: { replicas: 1, template: template(image, `h${image}`) },
    },
    'ReplicaSet',
  );
}

function deployment(image: string, annotations: Record<string, string>): Deployment {
  return {
    metadata: { name: 'web', namespace: 'ns', annotations },
    spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: template(image) },
  };
}

const imageOf = (d: Deployment) =>
  (d.spec?.template?.spec as { containers?: { image: string }[] } | undefined)?.containers?.[0]
    ?.image;

describe('getRollbackTo', () => {
  const cases: [string | undefined, bigint | undefined][] = [
    [undefined, undefined],
    ['', undefined],
    ['0', 0n],
    ['3', 3n],
    ['3546343826724305832', 3546343826724305832n],
    ['x', undefined],
    ['9223372036854775808', undefined],
  ];
  for (const [value, want] of cases) {
    it(`${JSON.stringify(value)} → ${want}`, () => {
      const annotations: Record<string, string> =
        value === undefined ? {} : { [ROLLBACK_TO_ANNOTATION]: value };
      assert.equal(getRollbackTo(deployment('a', annotations)), want);
    });
  }
});

describe('lastRevision', () => {
  const cases: [string, (string | undefined)[], bigint][] = [
    ['none', [], 0n],
    ['one', ['1'], 0n],
    ['second highest', ['3', '1', '2'], 2n],
    ['order does not matter', ['1', '3', '2'], 2n],
    ['two at the top', ['2', '2', '1'], 2n],
    ['unparsable skipped', ['x', '4', '3'], 3n],
    ['absent is revision 0', [undefined, '5'], 0n],
    ['int64', ['3546343826724305832', '3546343826724305833'], 3546343826724305832n],
  ];
  for (const [name, revisions, want] of cases) {
    it(name, () => assert.equal(lastRevision(revisions.map((r, i) => rs(`i${i}`, r))), want));
  }

  it('is the second largest of the parsed revisions (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), { maxLength: 8 }),
        (rs0) => {
          const sorted = [...rs0].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
          const want = sorted[1] ?? 0n;
          assert.equal(lastRevision(rs0.map((r, i) => rs(`p${i}`, String(r)))), want);
        },
      ),
    );
  });
});

describe('planRollback', () => {
  const history = [
    rs('v1', '1', { 'kubernetes.io/change-cause': 'v1' }),
    rs('v2', '2'),
    rs('v3', '3'),
  ];
  const current = (to: string) =>
    deployment('v3', {
      [REVISION_ANNOTATION]: '3',
      [ROLLBACK_TO_ANNOTATION]: to,
      'kubernetes.io/change-cause': 'v3',
      team: 'x',
    });

  const cases: {
    name: string;
    to: bigint;
    rss: ReplicaSet[];
    image: string;
    event: [string, string, string];
    when: 'before' | 'after';
  }[] = [
    {
      name: 'to revision 1 copies its template',
      to: 1n,
      rss: history,
      image: 'v1',
      event: ['Normal', 'DeploymentRollback', 'Rolled back deployment "web" to revision 1'],
      when: 'after',
    },
    {
      name: '0 means the last revision',
      to: 0n,
      rss: history,
      image: 'v2',
      event: ['Normal', 'DeploymentRollback', 'Rolled back deployment "web" to revision 2'],
      when: 'after',
    },
    {
      name: 'a revision no ReplicaSet has',
      to: 7n,
      rss: history,
      image: 'v3',
      event: [
        'Warning',
        'DeploymentRollbackRevisionNotFound',
        'Unable to find the revision to rollback to.',
      ],
      when: 'before',
    },
    {
      name: '0 without a previous revision',
      to: 0n,
      rss: [rs('v3', '3')],
      image: 'v3',
      event: ['Warning', 'DeploymentRollbackRevisionNotFound', 'Unable to find last revision.'],
      when: 'before',
    },
    {
      name: 'the current template (hash label ignored)',
      to: 3n,
      rss: history,
      image: 'v3',
      event: [
        'Warning',
        'DeploymentRollbackTemplateUnchanged',
        'The rollback revision contains the same template as current deployment "web"',
      ],
      when: 'before',
    },
    {
      name: 'an int64 revision',
      to: 3546343826724305832n,
      rss: [rs('v1', '3546343826724305832'), rs('v3', '3546343826724305833')],
      image: 'v1',
      event: [
        'Normal',
        'DeploymentRollback',
        'Rolled back deployment "web" to revision 3546343826724305832',
      ],
      when: 'after',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const d = current(String(c.to));
      const frozen = structuredClone(d);
      const plan = planRollback(d, c.rss, c.to);
      assert.deepEqual(d, frozen, 'the input is not changed');
      assert.equal(imageOf(plan.deployment), c.image);
      assert.equal(plan.deployment.metadata?.annotations?.[ROLLBACK_TO_ANNOTATION], undefined);
      const events = plan[c.when].map((e) => [e.type, e.reason, e.message]);
      assert.deepEqual(events, [c.event]);
      assert.equal(plan.before.length + plan.after.length, 1);
    });
  }

  it('restores the template without its hash label and the annotations recorded with it', () => {
    const plan = planRollback(current('1'), history, 1n);
    assert.deepEqual(plan.deployment.spec?.template?.metadata?.labels, { app: 'web' });
    assert.deepEqual(plan.deployment.metadata?.annotations, {
      // The Deployment's own bookkeeping stays; the rest comes from the ReplicaSet.
      [REVISION_ANNOTATION]: '3',
      'kubernetes.io/change-cause': 'v1',
    });
    assert.deepEqual(plan.deployment.spec?.selector, { matchLabels: { app: 'web' } });
  });

  it('a failed lookup changes nothing but the annotation', () => {
    const d = current('7');
    const plan = planRollback(d, history, 7n);
    const { [ROLLBACK_TO_ANNOTATION]: _gone, ...rest } = d.metadata?.annotations ?? {};
    assert.deepEqual(plan.deployment, { ...d, metadata: { ...d.metadata, annotations: rest } });
  });
});
