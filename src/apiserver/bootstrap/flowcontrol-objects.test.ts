import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  flowSchemaResource,
  priorityLevelConfigurationResource,
} from '../../api/kinds/flowcontrol.js';
import { simulateCreate } from '../../api/kinds/harness.js';
import type { KubeObject } from '../../api/object.js';
import {
  AUTO_UPDATE_ANNOTATION,
  BOOTSTRAP_FLOW_SCHEMAS,
  BOOTSTRAP_PRIORITY_LEVELS,
  type BootstrapObject,
  planBootstrapObject,
  planDangling,
} from './flowcontrol-objects.js';

const conditionsOf = (status: Record<string, unknown> | undefined) =>
  (status?.conditions ?? []) as { status: string }[];

const created = (b: BootstrapObject): KubeObject => {
  const write = planBootstrapObject(undefined, b);
  assert.equal(write?.action, 'create');
  return write.object;
};

describe('APF bootstrap objects', () => {
  for (const [def, objects] of [
    [priorityLevelConfigurationResource, BOOTSTRAP_PRIORITY_LEVELS],
    [flowSchemaResource, BOOTSTRAP_FLOW_SCHEMAS],
  ] as const) {
    for (const b of objects) {
      it(`${def.kind} ${b.name} is valid and unchanged by defaulting`, () => {
        const { object, messages } = simulateCreate(def, created(b));
        assert.deepEqual(messages, []);
        // Upstream checks its bootstrap objects are stable under defaulting: else every
        // ensurer pass would see a difference and write.
        assert.deepEqual(object.spec, b.spec);
      });
    }
  }

  const mandatory = BOOTSTRAP_FLOW_SCHEMAS.find((b) => b.name === 'catch-all')!;
  const suggested = BOOTSTRAP_FLOW_SCHEMAS.find((b) => b.name === 'global-default')!;
  const edited = (
    b: BootstrapObject,
    annotation: string | undefined,
    generation: number,
  ): KubeObject => ({
    metadata: {
      name: b.name,
      generation,
      ...(annotation === undefined
        ? {}
        : { annotations: { [AUTO_UPDATE_ANNOTATION]: annotation } }),
    },
    spec: { ...b.spec, matchingPrecedence: 4242 },
  });

  const plans: [string, KubeObject, BootstrapObject, 'update' | undefined][] = [
    ['a mandatory object, even opted out', edited(mandatory, 'false', 2), mandatory, 'update'],
    ['a suggested object opted in', edited(suggested, 'true', 2), suggested, 'update'],
    ['a suggested object opted out', edited(suggested, 'false', 2), suggested, undefined],
    [
      'a suggested object never changed, without annotation',
      edited(suggested, undefined, 1),
      suggested,
      'update',
    ],
    [
      'a suggested object a user changed, without annotation',
      edited(suggested, undefined, 2),
      suggested,
      undefined,
    ],
    ['an object as bootstrapped', created(suggested), suggested, undefined],
  ];
  for (const [name, current, wanted, action] of plans) {
    it(`plans ${action ?? 'nothing'} for ${name}`, () => {
      const write = planBootstrapObject(current, wanted);
      assert.equal(write?.action, action);
      if (write !== undefined) {
        assert.deepEqual(write.object.spec, wanted.spec);
        assert.equal(write.object.metadata?.annotations?.[AUTO_UPDATE_ANNOTATION], 'true');
      }
    });
  }

  it('marks a FlowSchema dangling only while its priority level is missing', () => {
    const fs = created(suggested);
    const missing = planDangling(fs, new Set(), 'T1');
    assert.equal(conditionsOf(missing)[0]?.status, 'True');
    const found = planDangling({ ...fs, status: missing }, new Set(['global-default']), 'T2');
    assert.deepEqual(found?.conditions, [
      {
        type: 'Dangling',
        status: 'False',
        reason: 'Found',
        message:
          'This FlowSchema references the PriorityLevelConfiguration object named "global-default" and it exists',
        lastTransitionTime: 'T2',
      },
    ]);
    assert.equal(
      planDangling({ ...fs, status: found }, new Set(['global-default']), 'T3'),
      undefined,
    );
  });
});
