import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { flowSchemaResource, priorityLevelConfigurationResource } from './flowcontrol.js';
import { simulateCreate } from './harness.js';

type Spec = Record<string, unknown>;
const rule = {
  subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }],
  resourceRules: [
    { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] },
  ],
};

describe('FlowSchema', () => {
  const fs = (spec: Spec, name = 'mine'): KubeObject => ({
    metadata: { name },
    spec: { priorityLevelConfiguration: { name: 'global-default' }, rules: [rule], ...spec },
  });

  it('defaults the matching precedence to 1000', () => {
    const { object, errors } = simulateCreate(flowSchemaResource, fs({}));
    assert.deepEqual(errors, []);
    assert.equal((object.spec as Spec).matchingPrecedence, 1000);
  });

  const cases: [string, KubeObject, string[]][] = [
    [
      'precedence 1 on another schema',
      fs({ matchingPrecedence: 1 }),
      [
        "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
      ],
    ],
    ['precedence 1 on exempt', fs({ matchingPrecedence: 1 }, 'exempt'), []],
    [
      'too high a precedence',
      fs({ matchingPrecedence: 10001 }),
      ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000'],
    ],
    [
      'an unknown distinguisher',
      fs({ distinguisherMethod: { type: 'ByIP' } }),
      [
        'spec.distinguisherMethod.type: Unsupported value: {"type":"ByIP"}: supported values: "ByNamespace", "ByUser"',
      ],
    ],
    [
      'no priority level',
      fs({ priorityLevelConfiguration: { name: '' } }),
      ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level'],
    ],
    [
      'a rule without subjects or rules',
      fs({ rules: [{ subjects: [] }] }),
      [
        'spec.rules[0].subjects: Required value: subjects must contain at least one value',
        'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
      ],
    ],
    [
      'a namespaced rule without namespaces, and a wildcard beside a verb',
      fs({
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'u' } }],
            resourceRules: [{ verbs: ['*', 'get'], apiGroups: [''], resources: ['pods'] }],
          },
        ],
      }),
      [
        'spec.rules[0].resourceRules[0].verbs: Invalid value: ["*","get"]: if \'*\' is present, must not specify other verbs',
        'spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
      ],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(flowSchemaResource, obj).messages, want);
    });
  }
});

describe('PriorityLevelConfiguration', () => {
  const pl = (spec: Spec, name = 'mine'): KubeObject => ({ metadata: { name }, spec });

  it('fills the limited and queuing defaults', () => {
    const { object, errors } = simulateCreate(
      priorityLevelConfigurationResource,
      pl({ type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual((object.spec as Spec).limited, {
      nominalConcurrencyShares: 30,
      lendablePercent: 0,
      limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
    });
  });

  const cases: [string, KubeObject, string[]][] = [
    [
      'Exempt under another name',
      pl({ type: 'Exempt', exempt: {} }),
      [
        "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
      ],
    ],
    [
      'Limited without limited',
      pl({ type: 'Limited' }),
      ['spec.limited: Required value: must not be empty when type is Limited'],
    ],
    [
      'a hand larger than the queues',
      pl({
        type: 'Limited',
        limited: {
          limitResponse: {
            type: 'Queue',
            queuing: { queues: 4, handSize: 8, queueLengthLimit: 10 },
          },
        },
      }),
      [
        'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (4)',
      ],
    ],
    [
      'queuing on a Reject response',
      pl({
        type: 'Limited',
        limited: {
          lendablePercent: 101,
          limitResponse: { type: 'Reject', queuing: { queues: 1 } },
        },
      }),
      [
        'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
        'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
      ],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(priorityLevelConfigurationResource, obj).messages, want);
    });
  }
});
