import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../api/errors.js';
import type { ContainerStatus, Pod } from '../../api/model/index.js';
import { logRefusal, selectContainer } from './pod-containers.js';

function pod(containers: string[], status?: Partial<ContainerStatus>, init: string[] = []): Pod {
  return {
    metadata: { name: 'p' },
    spec: {
      containers: containers.map((name) => ({ name, image: 'i' })),
      initContainers: init.map((name) => ({ name, image: 'i' })),
    },
    status:
      status === undefined
        ? {}
        : {
            containerStatuses: [
              { name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, ...status },
            ],
          },
  };
}

describe('selectContainer', () => {
  it('defaults to the only container', () => assert.equal(selectContainer(pod(['c']), ''), 'c'));
  const refused: { pod: Pod; requested: string; message: string }[] = [
    {
      pod: pod(['a', 'b']),
      requested: '',
      message: 'a container name must be specified for pod p, choose one of: [a b]',
    },
    {
      pod: pod(['a', 'b'], undefined, ['init']),
      requested: '',
      message:
        'a container name must be specified for pod p, choose one of: [a b] or one of the init containers: [init]',
    },
    { pod: pod(['a']), requested: 'z', message: 'container z is not valid for pod p' },
  ];
  for (const c of refused) {
    it(c.message, () => {
      assert.throws(
        () => selectContainer(c.pod, c.requested),
        (e: unknown) => isStatusError(e) && e.code === 400 && e.message === c.message,
      );
    });
  }
});

describe('logRefusal (the kubelet)', () => {
  const terminated = { containerID: 'sim://1', exitCode: 1 };
  const cases: {
    name: string;
    status?: Partial<ContainerStatus>;
    previous: boolean;
    want: string | undefined;
  }[] = [
    { name: 'running', status: { state: { running: {} } }, previous: false, want: undefined },
    {
      name: 'waiting to start',
      status: { state: { waiting: { reason: 'ContainerCreating' } } },
      previous: false,
      want: 'container "c" in pod "p" is waiting to start: ContainerCreating',
    },
    {
      name: 'image pull failing',
      status: { state: { waiting: { reason: 'ImagePullBackOff' } } },
      previous: false,
      want: 'container "c" in pod "p" is waiting to start: trying and failing to pull image',
    },
    {
      name: 'crash loop shows the last run',
      status: { state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated } },
      previous: false,
      want: undefined,
    },
    {
      name: 'previous of a restarted container',
      status: { state: { running: {} }, lastState: { terminated } },
      previous: true,
      want: undefined,
    },
    {
      name: 'previous of a first run',
      status: { state: { running: {} } },
      previous: true,
      want: 'previous terminated container "c" in pod "p" not found',
    },
    { name: 'no status yet', previous: false, want: 'container "c" in pod "p" is not available' },
  ];
  for (const c of cases) {
    it(c.name, () => assert.equal(logRefusal(pod(['c'], c.status), 'c', c.previous), c.want));
  }
});
