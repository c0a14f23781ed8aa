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
