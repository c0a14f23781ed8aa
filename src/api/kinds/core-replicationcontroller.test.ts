import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject, KubeObject } from '../object.js';
import { replicationControllerResource as rc } from './core-replicationcontroller.js';
import { simulateCreate } from './harness.js';

const template = (labels: Record<string, string>, spec: JsonObject = {}) => ({
  metadata: { labels },
  spec: { containers: [{ name: 'web', image: 'nginx:1.27' }], ...spec },
});

function controller(spec: JsonObject, meta: JsonObject = {}): KubeObject {
  return { metadata: { name: 'web', namespace: 'default', ...meta }, spec };
}

describe('core/v1 ReplicationController', () => {
  it('defaults replicas, the selector and the labels from the template', () => {
    const { object, errors } = simulateCreate(
      rc,
      controller({ template: template({ app: 'web' }) }),
    );
    assert.deepEqual(errors, []);
    const spec = object.spec as JsonObject;
    assert.equal(spec.replicas, 1);
    assert.deepEqual(spec.selector, { app: 'web' });
    assert.deepEqual(object.metadata?.labels, { app: 'web' });
    assert.deepEqual(object.status, { replicas: 0 });
  });

  it('keeps a given selector and labels', () => {
    const { object } = simulateCreate(
      rc,
      controller(
        { selector: { app: 'web' }, template: template({ app: 'web', tier: 'a' }) },
        { labels: { own: 'x' } },
      ),
    );
    assert.deepEqual((object.spec as JsonObject).selector, { app: 'web' });
    assert.deepEqual(object.metadata?.labels, { own: 'x' });
  });

  const invalid: Array<[string, JsonObject, string[]]> = [
    [
      'a selector that does not match the template',
      { selector: { app: 'other' }, template: template({ app: 'web' }) },
      [
        'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'no template and no selector',
      { replicas: 1 },
      ['spec.selector: Required value', 'spec.template: Required value'],
    ],
    [
      'a pod template that does not always restart',
      { template: template({ app: 'web' }, { restartPolicy: 'Never' }) },
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
    ],
    [
      'negative replicas',
      { replicas: -1, template: template({ app: 'web' }) },
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ],
  ];
  for (const [name, spec, messages] of invalid) {
    it(`refuses ${name}`, () => {
      assert.deepEqual(simulateCreate(rc, controller(spec)).messages, messages);
    });
  }

  it('validates status counters against each other', () => {
    const errors = rc.strategy.validateStatusUpdate?.(
      controller({}, {}) && {
        metadata: { name: 'web' },
        status: { replicas: 1, readyReplicas: 2 },
      },
      { metadata: { name: 'web' } },
    );
    assert.deepEqual(
      errors?.map((e) => `${e.field}: ${e.detail}`),
      ['status.readyReplicas: cannot be greater than status.replicas'],
    );
  });
});
