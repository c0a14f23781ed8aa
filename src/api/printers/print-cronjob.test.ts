/** The CronJob table: upstream's columns and cells (printers.go `printCronJob`, v1.27+). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { CRON_JOB_COLUMNS, printCronJob } from './print-cronjob.js';
import { builtinPrinter } from './registry.js';

const now = new Date('2026-01-01T01:00:00Z');
const cronJob = (
  spec: Record<string, unknown>,
  status: Record<string, unknown> = {},
): KubeObject => ({
  metadata: { name: 'backup', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: {
    schedule: '*/10 * * * *',
    jobTemplate: {
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'a', image: 'busybox' },
              { name: 'b', image: 'alpine' },
            ],
          },
        },
      },
    },
    ...spec,
  },
  status,
});

describe('CronJob printer', () => {
  it('has upstream columns, the wide ones at priority 1', () => {
    assert.deepEqual(
      CRON_JOB_COLUMNS.map((c) => [c.name, c.type, c.priority]),
      [
        ['Name', 'string', 0],
        ['Schedule', 'string', 0],
        ['Timezone', 'string', 0],
        ['Suspend', 'boolean', 0],
        ['Active', 'integer', 0],
        ['Last Schedule', 'string', 0],
        ['Age', 'string', 0],
        ['Containers', 'string', 1],
        ['Images', 'string', 1],
        ['Selector', 'string', 1],
      ],
    );
    assert.equal(builtinPrinter('batch', 'CronJob').columns, CRON_JOB_COLUMNS);
  });

  const cases: ReadonlyArray<[string, KubeObject, unknown[]]> = [
    [
      'a new CronJob',
      cronJob({ suspend: false }),
      [
        'backup',
        '*/10 * * * *',
        '<none>',
        'False',
        0,
        '<none>',
        '60m',
        'a,b',
        'busybox,alpine',
        '<none>',
      ],
    ],
    [
      'running, with a zone',
      cronJob(
        { suspend: true, timeZone: 'Europe/Berlin' },
        {
          active: [{ name: 'backup-1' }, { name: 'backup-2' }],
          lastScheduleTime: '2026-01-01T00:50:00Z',
        },
      ),
      [
        'backup',
        '*/10 * * * *',
        'Europe/Berlin',
        'True',
        2,
        '10m',
        '60m',
        'a,b',
        'busybox,alpine',
        '<none>',
      ],
    ],
    [
      'suspend unset',
      cronJob({}),
      [
        'backup',
        '*/10 * * * *',
        '<none>',
        '<unset>',
        0,
        '<none>',
        '60m',
        'a,b',
        'busybox,alpine',
        '<none>',
      ],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(name, () => assert.deepEqual(printCronJob(obj, now).cells, want));
  }

  it('never throws on an incomplete object', () => {
    assert.deepEqual(printCronJob({}, now).cells, [
      '',
      '',
      '<none>',
      '<unset>',
      0,
      '<none>',
      '<unknown>',
      '',
      '',
      '<none>',
    ]);
  });
});
