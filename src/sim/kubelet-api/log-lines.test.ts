import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContainerStatus, Pod } from '../../api/model/index.js';
import { containerLog, LOG_INTERVAL_ANNOTATION, LOG_LINES_ANNOTATION } from './log-lines.js';

const START = '2026-12-01T10:00:00Z';
const T0 = Date.parse(START);

function pod(status: Partial<ContainerStatus>, annotations: Record<string, string> = {}): Pod {
  return {
    metadata: { name: 'web', namespace: 'default', annotations },
    spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx:1.27' }] },
    status: {
      containerStatuses: [
        { name: 'app', image: 'nginx:1.27', imageID: '', ready: true, restartCount: 0, ...status },
      ],
    },
  };
}

const running = { containerID: 'sim://b', state: { running: { startedAt: START } } };
const terminated = {
  containerID: 'sim://a',
  exitCode: 1,
  reason: 'Error',
  message: 'out of cheese',
  startedAt: '2026-12-01T09:59:00Z',
  finishedAt: '2026-12-01T09:59:30Z',
};

describe('containerLog', () => {
  const cases: {
    name: string;
    pod: Pod;
    previous: boolean;
    want: { at: number; text: string }[] | undefined;
    running?: boolean;
  }[] = [
    {
      name: 'a running container: its start line',
      pod: pod(running),
      previous: false,
      want: [
        { at: T0, text: '[fleetyard] container "app" started (image nginx:1.27, node node-1)' },
      ],
      running: true,
    },
    {
      name: 'annotation lines, spaced by the interval',
      pod: pod(running, { [LOG_LINES_ANNOTATION]: 'a\nb\n', [LOG_INTERVAL_ANNOTATION]: '2s' }),
      previous: false,
      want: [
        { at: T0, text: '[fleetyard] container "app" started (image nginx:1.27, node node-1)' },
        { at: T0 + 2000, text: 'a' },
        { at: T0 + 4000, text: 'b' },
      ],
      running: true,
    },
    {
      name: "the container's own annotation wins",
      pod: pod(running, { [LOG_LINES_ANNOTATION]: 'all', [`${LOG_LINES_ANNOTATION}.app`]: 'mine' }),
      previous: false,
      want: [
        { at: T0, text: '[fleetyard] container "app" started (image nginx:1.27, node node-1)' },
        { at: T0, text: 'mine' },
      ],
      running: true,
    },
    {
      name: 'previous: the last termination, message and exit line, lines after the end cut',
      pod: pod(
        { ...running, lastState: { terminated } },
        { [LOG_LINES_ANNOTATION]: 'x\ny', [LOG_INTERVAL_ANNOTATION]: '20s' },
      ),
      previous: true,
      want: [
        {
          at: T0 - 60_000,
          text: '[fleetyard] container "app" started (image nginx:1.27, node node-1)',
        },
        { at: T0 - 40_000, text: 'x' },
        { at: T0 - 30_000, text: 'out of cheese' },
        { at: T0 - 30_000, text: '[fleetyard] container "app" exited with code 1 (Error)' },
      ],
      running: false,
    },
    {
      name: 'waiting to restart: the last run is the current log',
      pod: pod({
        containerID: '',
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: { terminated },
      }),
      previous: false,
      want: [
        {
          at: T0 - 60_000,
          text: '[fleetyard] container "app" started (image nginx:1.27, node node-1)',
        },
        { at: T0 - 30_000, text: 'out of cheese' },
        { at: T0 - 30_000, text: '[fleetyard] container "app" exited with code 1 (Error)' },
      ],
      running: false,
    },
    { name: 'no previous run', pod: pod(running), previous: true, want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const log = containerLog(c.pod, 'app', c.previous);
      assert.deepEqual(log?.lines, c.want);
      if (c.running !== undefined) assert.equal(log?.running, c.running);
    });
  }
});
