import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PodSpec } from '../../api/model/index.js';
import {
  DAEMON_POD_TOLERATIONS,
  daemonPodTemplate,
  nodeShouldRunDaemonPod,
  targetNodeName,
  withDaemonTolerations,
} from './node-eligibility.js';
import { makeDaemonSet, makeNode, makePod } from './testing/fixtures.js';

const spec = (more: Partial<PodSpec> = {}): PodSpec => ({
  containers: [{ name: 'a', image: 'a' }],
  ...more,
});

describe('daemon pod tolerations', () => {
  it('adds the six upstream tolerations, and network-unavailable for host networking', () => {
    assert.deepEqual(withDaemonTolerations(spec()).tolerations, DAEMON_POD_TOLERATIONS);
    const host = withDaemonTolerations(spec({ hostNetwork: true })).tolerations ?? [];
    assert.equal(host.length, 7);
    assert.deepEqual(host.at(-1), {
      key: 'node.kubernetes.io/network-unavailable',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
  });

  it("keeps the user's, replacing an equal one (a tolerationSeconds is dropped)", () => {
    const mine = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 30,
    };
    const other = { key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoSchedule' };
    const out = withDaemonTolerations(spec({ tolerations: [mine, other] })).tolerations ?? [];
    assert.deepEqual(out[0], DAEMON_POD_TOLERATIONS[0]);
    assert.deepEqual(out[1], other);
    assert.equal(out.length, 7);
  });
});

describe('nodeShouldRunDaemonPod', () => {
  const cases = [
    { name: 'a plain node', node: makeNode('n1'), want: [true, true] },
    {
      name: 'template nodeName elsewhere',
      node: makeNode('n1'),
      ds: makeDaemonSet({
        template: { metadata: { labels: { app: 'agent' } }, spec: spec({ nodeName: 'n2' }) },
      }),
      want: [false, false],
    },
    {
      name: 'nodeSelector mismatch',
      node: makeNode('n1', { disk: 'hdd' }),
      ds: makeDaemonSet({
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: spec({ nodeSelector: { disk: 'ssd' } }),
        },
      }),
      want: [false, false],
    },
    {
      name: 'untolerated NoSchedule: keep what runs',
      node: makeNode('n1', {}, [{ key: 'x', effect: 'NoSchedule' }]),
      want: [false, true],
    },
    {
      name: 'untolerated NoExecute: nothing',
      node: makeNode('n1', {}, [{ key: 'x', effect: 'NoExecute' }]),
      want: [false, false],
    },
    {
      name: 'PreferNoSchedule is no obstacle',
      node: makeNode('n1', {}, [{ key: 'x', effect: 'PreferNoSchedule' }]),
      want: [true, true],
    },
    {
      name: 'a down node (unreachable NoSchedule + NoExecute): keep, do not add',
      node: makeNode('n1', {}, [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      ]),
      want: [false, true],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const e = nodeShouldRunDaemonPod(c.node, c.ds ?? makeDaemonSet());
      assert.deepEqual([e.shouldRun, e.shouldContinueRunning], c.want);
    });
  }
});

describe('daemon pod template', () => {
  it('pins the node with matchFields, labels hash and generation, keeps preferred affinity', () => {
    const preferred = [
      { weight: 1, preference: { matchExpressions: [{ key: 'z', operator: 'Exists' }] } },
    ];
    const ds = makeDaemonSet({
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: spec({
          affinity: {
            nodeAffinity: {
              requiredDuringSchedulingIgnoredDuringExecution: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'z', operator: 'Exists' }] }],
              },
              preferredDuringSchedulingIgnoredDuringExecution: preferred,
            },
          },
        }),
      },
    });
    const t = daemonPodTemplate(ds, 'n7', 'abc', 3);
    assert.deepEqual(t.metadata?.labels, {
      app: 'agent',
      'pod-template-generation': '3',
      'controller-revision-hash': 'abc',
    });
    assert.deepEqual(t.spec?.affinity?.nodeAffinity, {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n7'] }] },
        ],
      },
      preferredDuringSchedulingIgnoredDuringExecution: preferred,
    });
    assert.equal(t.spec?.tolerations?.length, 6);
    // The DaemonSet itself is not touched.
    assert.equal(ds.spec?.template.spec?.tolerations, undefined);
  });

  it('targetNodeName: the bound node, else the pinned one', () => {
    assert.equal(targetNodeName(makePod('a', 'n1')), 'n1');
    assert.equal(targetNodeName(makePod('a', 'n2', { bound: false })), 'n2');
    assert.equal(
      targetNodeName({ apiVersion: 'v1', kind: 'Pod', spec: { containers: [] } }),
      undefined,
    );
  });
});
