import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import { limitRangeResource, resourceQuotaResource } from './core-quota.js';

describe('ResourceQuota and LimitRange validation', () => {
  const cases: Array<[string, () => string[], string[]]> = [
    [
      'a valid quota',
      () => errorsOf(resourceQuotaResource, { spec: { hard: { cpu: '2', pods: 10 } } }),
      [],
    ],
    [
      'a malformed and a negative quantity',
      () => errorsOf(resourceQuotaResource, { spec: { hard: { cpu: 'lots', memory: '-1Gi' } } }),
      [
        'spec.hard[cpu]: Invalid value: "lots": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
        'spec.hard[memory]: Invalid value: "-1Gi": must be greater than or equal to 0',
      ],
    ],
    [
      'resource names: standard, counted, hugepages, extended and unknown',
      () =>
        errorsOf(resourceQuotaResource, {
          spec: {
            hard: {
              'count/deployments.apps': '2',
              'requests.hugepages-2Mi': '1Gi',
              'example.com/gpu': '2',
              storage: '1Gi',
              bogus: '1',
            },
          },
        }),
      [
        'spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota',
        'spec.hard[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified',
        'spec.hard[bogus]: Invalid value: "bogus": must be a standard resource for quota',
      ],
    ],
    [
      'object counts and extended resources are whole numbers',
      () =>
        errorsOf(resourceQuotaResource, {
          spec: { hard: { pods: '1500m', 'example.com/gpu': '0.5', cpu: '500m' } },
        }),
      [
        'spec.hard[pods]: Invalid value: "1500m": must be an integer',
        'spec.hard[example.com/gpu]: Invalid value: "0.5": must be an integer',
      ],
    ],
    [
      'limit range amounts',
      () =>
        errorsOf(limitRangeResource, {
          spec: { limits: [{ type: 'Container', max: { cpu: '1' }, min: { cpu: 'x' } }] },
        }),
      [
        'spec.limits[0].min[cpu]: Invalid value: "x": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
      ],
    ],
  ];
  for (const [name, run, expected] of cases) {
    it(name, () => assert.deepEqual(run(), expected));
  }
});

function errorsOf(def: typeof resourceQuotaResource, obj: Record<string, unknown>): string[] {
  return (def.strategy.validate?.({ metadata: { name: 'q' }, ...obj }) ?? []).map(fieldErrorText);
}

describe('LimitRange defaults and item relations', () => {
  const defaulted = (limits: object[]): unknown => {
    const obj = { metadata: { name: 'l' }, spec: { limits } };
    limitRangeResource.strategy.defaults?.(obj);
    return obj.spec.limits;
  };

  it('a Container item: default from max, default request from default, else min', () => {
    assert.deepEqual(
      defaulted([
        {
          type: 'Container',
          max: { cpu: '2', memory: '1Gi' },
          min: { cpu: '100m', 'ephemeral-storage': '1' },
        },
      ]),
      [
        {
          type: 'Container',
          max: { cpu: '2', memory: '1Gi' },
          min: { cpu: '100m', 'ephemeral-storage': '1' },
          default: { cpu: '2', memory: '1Gi' },
          defaultRequest: { cpu: '2', memory: '1Gi', 'ephemeral-storage': '1' },
        },
      ],
    );
  });

  it('a Pod item gets no defaults; amounts are stored canonical, rounded up to milli', () => {
    assert.deepEqual(defaulted([{ type: 'Pod', max: { cpu: '1.5', memory: '0.0001' } }]), [
      { type: 'Pod', max: { cpu: '1500m', memory: '1m' } },
    ]);
  });

  it('quota amounts are stored canonical', () => {
    const obj = { metadata: { name: 'q' }, spec: { hard: { cpu: '1.5', pods: 10, bad: 'x' } } };
    resourceQuotaResource.strategy.defaults?.(obj);
    assert.deepEqual(obj.spec.hard, { cpu: '1500m', pods: '10', bad: 'x' });
  });

  const cases: Array<[string, object[], string[]]> = [
    ['consistent amounts', [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } }], []],
    [
      'min over max (after defaulting)',
      [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }],
      [
        'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
        'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
        'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
      ],
    ],
    [
      'a default over the max',
      [
        {
          type: 'Container',
          max: { memory: '1Gi' },
          default: { memory: '2Gi' },
          defaultRequest: { memory: '1Gi' },
        },
      ],
      [
        'spec.limits[0].default[memory]: Invalid value: "1Gi": default value 2Gi is greater than max value 1Gi',
      ],
    ],
    [
      'a ratio below 1 and above max/min',
      [
        { type: 'Container', maxLimitRequestRatio: { cpu: '500m' } },
        { type: 'Pod', min: { cpu: '1' }, max: { cpu: '2' }, maxLimitRequestRatio: { cpu: '3' } },
      ],
      [
        'spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1',
        'spec.limits[1].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
      ],
    ],
    [
      'defaults on a Pod item, a claim item without storage bounds, an unknown and a repeated type',
      [
        { type: 'Pod', default: { cpu: '1' } },
        { type: 'PersistentVolumeClaim', max: { cpu: '1' } },
        { type: 'Node' },
        { type: 'Node' },
      ],
      [
        "spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
        'spec.limits[1].limits: Required value: either minimum or maximum storage value is required, but neither was provided',
        'spec.limits[2].type: Invalid value: "Node": must be a standard limit type or fully qualified',
        'spec.limits[3].type: Invalid value: "Node": must be a standard limit type or fully qualified',
        'spec.limits[3].type: Duplicate value: "Node"',
      ],
    ],
  ];
  for (const [name, limits, expected] of cases) {
    it(name, () => {
      const obj = { metadata: { name: 'l' }, spec: { limits } };
      limitRangeResource.strategy.defaults?.(obj);
      assert.deepEqual(errorsOf(limitRangeResource, obj), expected);
    });
  }
});
