/**
 * Decoding batch/v1 bodies as kubectl 1.33 sends them (`kubectl create job`, `create cronjob`):
 * hand-built bodies as Go's marshalers write them, and the JSON Go's `encoding/json` gives the
 * same value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeKubernetesProtobuf } from './decode.js';
import { envelope, fBytes, fVarint } from './testing/wire-writer.js';

type Json = Record<string, unknown>;

function decode(kind: string, ...fields: Buffer[]): Json {
  return decodeKubernetesProtobuf(envelope('batch/v1', kind, fields)).object;
}

const container = fBytes(2, [fBytes(1, 'pi'), fBytes(2, 'perl')]);
const podTemplate = fBytes(2, [container, fBytes(3, 'Never')]);

describe('decodeKubernetesProtobuf: batch/v1 Job', () => {
  it('decodes what kubectl create job sends, pointers kept when set to zero', () => {
    const spec = fBytes(2, [fVarint(7, 0), fBytes(6, [podTemplate]), fVarint(10, false)]);
    const d = decode('Job', fBytes(1, [fBytes(1, 'pi')]), spec, fBytes(3, []));
    assert.deepEqual(d.metadata, { name: 'pi', creationTimestamp: null });
    assert.deepEqual(d.spec, {
      backoffLimit: 0,
      template: {
        metadata: { creationTimestamp: null },
        spec: {
          containers: [{ name: 'pi', image: 'perl', resources: {} }],
          restartPolicy: 'Never',
        },
      },
      suspend: false,
    });
    assert.deepEqual(d.status, {});
  });

  it('decodes a pod failure policy with exit codes, packed or not, and a success policy', () => {
    const exit = fBytes(2, [fBytes(2, 'In'), fVarint(3, 1), fVarint(3, 42)]);
    const onCondition = fBytes(3, [fBytes(1, 'DisruptionTarget'), fBytes(2, 'True')]);
    const policy = fBytes(11, [
      fBytes(1, [fBytes(1, 'FailJob'), exit]),
      fBytes(1, [fBytes(1, 'Ignore'), onCondition]),
    ]);
    const success = fBytes(16, [fBytes(1, [fBytes(1, '0-2'), fVarint(2, 2)])]);
    const d = decode('Job', fBytes(2, [fVarint(2, 3), policy, success, fBytes(9, 'Indexed')]));
    const spec = d.spec as Json;
    assert.deepEqual(spec.podFailurePolicy, {
      rules: [
        { action: 'FailJob', onExitCodes: { operator: 'In', values: [1, 42] } },
        { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
      ],
    });
    assert.deepEqual(spec.successPolicy, {
      rules: [{ succeededIndexes: '0-2', succeededCount: 2 }],
    });
    assert.deepEqual(Object.keys(spec), [
      'completions',
      'podFailurePolicy',
      'successPolicy',
      'template',
      'completionMode',
    ]);
  });

  it('decodes a status with conditions, times and uncounted pods', () => {
    const condition = fBytes(1, [fBytes(1, 'Complete'), fBytes(2, 'True'), fBytes(5, 'Done')]);
    const uncounted = fBytes(8, [fBytes(1, 'u1'), fBytes(2, 'u2')]);
    const d = decode('Job', fBytes(3, [condition, fVarint(5, 3), fVarint(9, 0), uncounted]));
    assert.deepEqual(d.status, {
      // Go's omitempty never drops a struct: the unset Times are written as null.
      conditions: [
        {
          type: 'Complete',
          status: 'True',
          lastProbeTime: null,
          lastTransitionTime: null,
          reason: 'Done',
        },
      ],
      succeeded: 3,
      uncountedTerminatedPods: { succeeded: ['u1'], failed: ['u2'] },
      ready: 0,
    });
  });
});

describe('decodeKubernetesProtobuf: batch/v1 CronJob', () => {
  it('decodes what kubectl create cronjob sends', () => {
    const jobSpec = fBytes(2, [fBytes(6, [podTemplate])]);
    const jobTemplate = fBytes(5, [fBytes(1, [fBytes(1, 'every')]), jobSpec]);
    const d = decode('CronJob', fBytes(2, [fBytes(1, '*/1 * * * *'), jobTemplate]));
    const spec = d.spec as Json;
    assert.equal(spec.schedule, '*/1 * * * *');
    const tmpl = spec.jobTemplate as Json;
    assert.deepEqual(tmpl.metadata, { name: 'every', creationTimestamp: null });
    assert.deepEqual(Object.keys(tmpl.spec as Json), ['template']);
  });
});
