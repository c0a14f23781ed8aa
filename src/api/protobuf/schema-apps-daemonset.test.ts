/**
 * A DaemonSet as Go's protobuf marshaler writes it (field numbers of `apps/v1/generated.proto`)
 * decodes to the JSON upstream's `encoding/json` gives the same value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeKubernetesProtobuf } from './decode.js';
import { envelope, fBytes, fVarint } from './testing/wire-writer.js';

const ios = (type: number, i: number, s: string): Buffer =>
  Buffer.concat([fVarint(1, type), fVarint(2, i), fBytes(3, s)]);

describe('decodeKubernetesProtobuf: apps/v1 DaemonSet', () => {
  it('decodes spec, update strategy and status, the four counts written even at 0', () => {
    const selector = fBytes(1, [fBytes(1, [fBytes(1, 'app'), fBytes(2, 'agent')])]);
    const template = fBytes(2, [
      fBytes(1, [fBytes(11, [fBytes(1, 'app'), fBytes(2, 'agent')])]),
      fBytes(2, [fBytes(2, [fBytes(1, 'agent'), fBytes(2, 'agent:v1')])]),
    ]);
    const strategy = fBytes(3, [
      fBytes(1, 'RollingUpdate'),
      fBytes(2, [fBytes(1, ios(1, 0, '10%')), fBytes(2, ios(0, 0, ''))]),
    ]);
    const spec = fBytes(2, [selector, template, strategy, fVarint(4, 5), fVarint(6, 3)]);
    const status = fBytes(3, [fVarint(3, 2), fVarint(5, 7), fVarint(9, 1)]);
    const { object } = decodeKubernetesProtobuf(
      envelope('apps/v1', 'DaemonSet', [fBytes(1, [fBytes(1, 'agent')]), spec, status]),
    );
    assert.equal(object.kind, 'DaemonSet');
    const s = object.spec as Record<string, unknown>;
    assert.deepEqual(s.selector, { matchLabels: { app: 'agent' } });
    assert.deepEqual(s.updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 },
    });
    assert.equal(s.minReadySeconds, 5);
    assert.equal(s.revisionHistoryLimit, 3);
    assert.deepEqual(object.status, {
      currentNumberScheduled: 0,
      numberMisscheduled: 0,
      desiredNumberScheduled: 2,
      numberReady: 0,
      observedGeneration: 7,
      collisionCount: 1,
    });
  });
});
