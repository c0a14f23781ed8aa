import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import {
  aggregateMessage,
  applyContainerDefaults,
  goFormatFixed6,
  LIMIT_RANGER_ANNOTATION,
  limitRangeItems,
  validateClaimLimits,
  validatePodLimits,
} from './limit-range-rules.js';

type Res = { requests?: Record<string, string>; limits?: Record<string, string> };
const lr = (...limits: Record<string, unknown>[]) =>
  limitRangeItems({ metadata: { name: 'lr' }, spec: { limits } });
const pod = (containers: Res[], init: Res[] = []): KubeObject => ({
  metadata: { name: 'p' },
  spec: {
    containers: containers.map((resources, i) => ({ name: `c${i}`, resources })),
    ...(init.length > 0
      ? { initContainers: init.map((resources, i) => ({ name: `i${i}`, resources })) }
      : {}),
  },
});

describe('LimitRange item defaults (SetDefaults_LimitRangeItem)', () => {
  it('a Container default falls back to max, a default request to default then min', () => {
    const [item] = lr({ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } });
    assert.equal(item?.default.get('cpu')?.nanos, 2_000_000_000n);
    assert.equal(item?.defaultRequest.get('cpu')?.nanos, 2_000_000_000n);
    assert.equal(item?.defaultRequest.get('memory')?.nanos, 64n * 1024n * 1024n * 1_000_000_000n);
  });
  it('other types get no defaults', () => {
    const [item] = lr({ type: 'Pod', max: { cpu: '2' } });
    assert.equal(item?.default.size, 0);
  });
});

describe('applyContainerDefaults', () => {
  it('fills what containers and init containers lack, and says so in the annotation', () => {
    const p = pod([{ limits: { cpu: '1' }, requests: { cpu: '1' } }, {}], [{}]);
    const changed = applyContainerDefaults(
      p,
      lr({
        type: 'Container',
        default: { cpu: '500m', memory: '256Mi' },
        defaultRequest: { cpu: '100m' },
      }),
    );
    assert.equal(changed, true);
    const spec = p.spec as {
      containers: { resources: Res }[];
      initContainers: { resources: Res }[];
    };
    assert.deepEqual(spec.containers[0]?.resources, {
      limits: { cpu: '1', memory: '256Mi' },
      requests: { cpu: '1', memory: '256Mi' },
    });
    assert.deepEqual(spec.containers[1]?.resources, {
      requests: { cpu: '100m', memory: '256Mi' },
      limits: { cpu: '500m', memory: '256Mi' },
    });
    assert.equal(
      p.metadata?.annotations?.[LIMIT_RANGER_ANNOTATION],
      'LimitRanger plugin set: memory request for container c0; memory limit for container c0; ' +
        'cpu, memory request for container c1; cpu, memory limit for container c1; ' +
        'cpu, memory request for init container i0; cpu, memory limit for init container i0',
    );
  });
  it('changes nothing without Container defaults', () => {
    const p = pod([{}]);
    assert.equal(applyContainerDefaults(p, lr({ type: 'Pod', max: { cpu: '1' } })), false);
    assert.equal(p.metadata?.annotations, undefined);
  });
});

describe('validatePodLimits (upstream messages)', () => {
  const cases: Array<[string, ReturnType<typeof lr>, KubeObject, string | undefined]> = [
    [
      'max limit per Container',
      lr({ type: 'Container', max: { cpu: '1' } }),
      pod([{ limits: { cpu: '2' }, requests: { cpu: '500m' } }]),
      'maximum cpu usage per Container is 1, but limit is 2',
    ],
    [
      'max without a limit',
      lr({ type: 'Container', max: { memory: '1Gi' } }),
      pod([{ requests: { memory: '1Gi' } }]),
      'maximum memory usage per Container is 1Gi.  No limit is specified',
    ],
    [
      'min request per Container',
      lr({ type: 'Container', min: { cpu: '200m' } }),
      pod([{ requests: { cpu: '100m' } }]),
      'minimum cpu usage per Container is 200m, but request is 100m',
    ],
    [
      'min of the Pod sum',
      lr({ type: 'Pod', min: { memory: '1Gi' } }),
      pod([{ limits: { memory: '1Gi' } }]),
      'minimum memory usage per Pod is 1Gi.  No request is specified',
    ],
    [
      'max of the Pod sum, two containers',
      lr({ type: 'Pod', max: { cpu: '1' } }),
      pod([
        { requests: { cpu: '600m' }, limits: { cpu: '600m' } },
        { requests: { cpu: '600m' }, limits: { cpu: '600m' } },
      ]),
      'maximum cpu usage per Pod is 1, but limit is 1200m',
    ],
    [
      'limit to request ratio',
      lr({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod([{ requests: { cpu: '250m' }, limits: { cpu: '1' } }]),
      'cpu max limit to request ratio per Container is 2, but provided ratio is 4.000000',
    ],
    [
      'ratio without a request',
      lr({ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }),
      pod([{ limits: { cpu: '1' } }]),
      'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0',
    ],
    [
      'init containers are checked too, errors aggregated',
      lr({ type: 'Container', max: { cpu: '1' } }),
      pod([{ limits: { cpu: '1' } }], [{ limits: { cpu: '3' } }, { limits: { cpu: '4' } }]),
      '[maximum cpu usage per Container is 1, but limit is 3, maximum cpu usage per Container is 1, but limit is 4]',
    ],
    [
      'within bounds',
      lr({
        type: 'Container',
        min: { cpu: '100m' },
        max: { cpu: '1' },
        maxLimitRequestRatio: { cpu: '4' },
      }),
      pod([{ requests: { cpu: '250m' }, limits: { cpu: '1' } }]),
      undefined,
    ],
  ];
  for (const [name, items, p, want] of cases) {
    it(name, () => assert.equal(validatePodLimits(p, items), want));
  }
});

describe('validateClaimLimits', () => {
  const claim = (storage?: string): KubeObject => ({
    metadata: { name: 'c' },
    spec: { resources: storage ? { requests: { storage } } : {} },
  });
  const items = lr({
    type: 'PersistentVolumeClaim',
    min: { storage: '1Gi' },
    max: { storage: '5Gi' },
  });
  it('refuses below min and above max', () => {
    assert.equal(
      validateClaimLimits(claim('500Mi'), items),
      'minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi',
    );
    assert.equal(
      validateClaimLimits(claim('10Gi'), items),
      'maximum storage usage per PersistentVolumeClaim is 5Gi, but request is 10Gi',
    );
    assert.equal(validateClaimLimits(claim('2Gi'), items), undefined);
  });
});

describe('messages', () => {
  it('aggregates like utilerrors.NewAggregate', () => {
    assert.equal(aggregateMessage([]), undefined);
    assert.equal(aggregateMessage(['a']), 'a');
    assert.equal(aggregateMessage(['a', 'b', 'a']), '[a, b]');
    assert.equal(aggregateMessage(['a', 'a']), 'a');
  });
  it('formats %f as Go: exact binary value, ties to even', () => {
    assert.equal(goFormatFixed6(4), '4.000000');
    assert.equal(goFormatFixed6(1 / 3), '0.333333');
    assert.equal(goFormatFixed6(129 / 128), '1.007812');
    assert.equal(goFormatFixed6(2.5e-7), '0.000000');
    assert.equal(goFormatFixed6(1e21), '1000000000000000000000.000000');
  });
  it('agrees with toFixed away from exact ties (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e9, noNaN: true }), (x) => {
        const scaled = x * 1e6;
        fc.pre(Math.abs(scaled - Math.floor(scaled) - 0.5) > 1e-3);
        assert.equal(goFormatFixed6(x), x.toFixed(6));
      }),
    );
  });
});
