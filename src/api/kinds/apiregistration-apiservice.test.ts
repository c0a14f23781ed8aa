import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { apiServiceResource } from './apiregistration-apiservice.js';
import { simulateCreate } from './harness.js';

type Spec = Record<string, unknown>;
const svc = (name: string, spec: Spec): KubeObject => ({
  metadata: { name },
  spec: { groupPriorityMinimum: 100, versionPriority: 100, ...spec },
});

describe('APIService', () => {
  it('defaults a service port to 443', () => {
    const { object, errors } = simulateCreate(
      apiServiceResource,
      svc('v1beta1.metrics.k8s.io', {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        service: { namespace: 'kube-system', name: 'metrics-server' },
        insecureSkipTLSVerify: true,
      }),
    );
    assert.deepEqual(errors, []);
    assert.equal(((object.spec as Spec).service as Spec).port, 443);
  });

  const cases: [string, KubeObject, string[]][] = [
    ['the core local APIService', svc('v1.', { group: '', version: 'v1' }), []],
    [
      'a name that is not version.group',
      svc('metrics', { group: 'metrics.k8s.io', version: 'v1beta1' }),
      [
        'metadata.name: Invalid value: "metrics": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
      ],
    ],
    [
      'an empty group beyond v1',
      svc('v2.', { group: '', version: 'v2' }),
      ['spec.group: Required value: only v1 may have an empty group and it better be legacy kube'],
    ],
    [
      'priorities out of range',
      svc('v1.a.io', {
        group: 'a.io',
        version: 'v1',
        groupPriorityMinimum: 0,
        versionPriority: 1001,
      }),
      [
        'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
        'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
      ],
    ],
    [
      'a local APIService with a CA bundle',
      svc('v1.a.io', { group: 'a.io', version: 'v1', caBundle: 'AAAA' }),
      ['spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle'],
    ],
    [
      'a service without a name and a bad port',
      svc('v1.a.io', { group: 'a.io', version: 'v1', service: { namespace: 'ns', port: 0 } }),
      [
        'spec.service.name: Required value',
        'spec.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      ],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(apiServiceResource, obj).messages, want);
    });
  }
});
