import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { builtinPrinter } from './registry.js';

const NOW = new Date('2026-01-01T00:10:00Z');

function quota(hard: Record<string, string>, status?: object): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'q', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: { hard },
    ...(status ? { status } : {}),
  } as KubeObject;
}

describe('kubectl get resourcequota (printResourceQuota)', () => {
  const printer = builtinPrinter('', 'ResourceQuota');

  it('has the Name, Age, Request and Limit columns', () => {
    assert.deepEqual(
      printer.columns.map((c) => c.name),
      ['Name', 'Age', 'Request', 'Limit'],
    );
  });

  const table: [string, KubeObject, string[]][] = [
    [
      'used/hard by sorted name, limits.* in the Limit column',
      quota(
        { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi', 'limits.cpu': '2' },
        {
          hard: { pods: '2', 'requests.cpu': '1', 'limits.memory': '1Gi', 'limits.cpu': '2' },
          used: { pods: '1', 'requests.cpu': '500m', 'limits.memory': '0', 'limits.cpu': '0' },
        },
      ),
      ['q', '10m', 'pods: 1/2, requests.cpu: 500m/1', 'limits.cpu: 0/2, limits.memory: 0/1Gi'],
    ],
    ['not counted yet: zeros', quota({ pods: '5' }), ['q', '10m', 'pods: 0/0', '']],
    [
      'a limits resource without a dot is a request',
      quota({ limits: '1', cpu: '1' }, { hard: { limits: '1', cpu: '1' }, used: { cpu: '1' } }),
      ['q', '10m', 'cpu: 1/1, limits: 0/1', ''],
    ],
  ];
  for (const [name, object, cells] of table) {
    it(name, () => assert.deepEqual(printer.row(object, NOW).cells, cells));
  }
});
