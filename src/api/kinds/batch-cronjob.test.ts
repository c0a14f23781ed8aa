/**
 * The CronJob kind: upstream's defaults and the messages of `ValidateCronJobCreate` /
 * `ValidateCronJobUpdate` (schedule syntax as robfig/cron reports it, TZ rules, time zones,
 * limits, the 52-character name, the job template's restartPolicy and selector).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldErrorText } from '../field-error.js';
import type { KubeObject } from '../object.js';
import { cronJobResource } from './batch-cronjob.js';
import { parseCronSchedule } from './batch-cronjob-schedule.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Spec = Record<string, unknown>;
const cj = (spec: Spec = {}, name = 'backup', podSpec: Spec = {}): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'CronJob',
  metadata: { name, namespace: 'default' },
  spec: {
    schedule: '*/10 * * * *',
    jobTemplate: {
      spec: {
        template: {
          spec: {
            restartPolicy: 'OnFailure',
            containers: [{ name: 'c', image: 'busybox' }],
            ...podSpec,
          },
        },
      },
    },
    ...spec,
  },
});

/** A create as the API server runs it: validate, then (if clean) the create-only rules. */
function create(obj: KubeObject): { object: KubeObject; messages: string[] } {
  const { object, errors } = simulateCreate(cronJobResource, obj);
  const all =
    errors.length > 0 ? errors : (cronJobResource.strategy.validateCreate?.(object) ?? []);
  return { object, messages: all.map(fieldErrorText) };
}

describe('CronJob defaults', () => {
  it('applies SetDefaults_CronJob and the template pod defaults, not the Job defaults', () => {
    const { object, messages } = create(cj());
    assert.deepEqual(messages, []);
    const spec = object.spec as Spec;
    assert.equal(spec.concurrencyPolicy, 'Allow');
    assert.equal(spec.suspend, false);
    assert.equal(spec.successfulJobsHistoryLimit, 3);
    assert.equal(spec.failedJobsHistoryLimit, 1);
    const jobSpec = (spec.jobTemplate as Spec).spec as Spec;
    assert.equal(jobSpec.backoffLimit, undefined);
    const podSpec = (jobSpec.template as Spec).spec as Spec;
    assert.equal(podSpec.dnsPolicy, 'ClusterFirst');
    assert.equal(podSpec.schedulerName, 'default-scheduler');
    assert.deepEqual(object.status, {});
  });

  it('keeps explicit values', () => {
    const spec = create(
      cj({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 0 }),
    ).object.spec as Spec;
    assert.equal(spec.concurrencyPolicy, 'Forbid');
    assert.equal(spec.suspend, true);
    assert.equal(spec.successfulJobsHistoryLimit, 0);
  });
});

describe('CronJob validation on create', () => {
  const cases: ReadonlyArray<[string, KubeObject, string[]]> = [
    ['valid', cj(), []],
    ['descriptors', cj({ schedule: '@every 1h30m' }), []],
    ['? and names', cj({ schedule: '0 0 ? JAN-MAR mon' }), []],
    ['empty schedule', cj({ schedule: '' }), ['spec.schedule: Required value']],
    [
      'out of range',
      cj({ schedule: '60 * * * *' }),
      ['spec.schedule: Invalid value: "60 * * * *": end of range (60) above maximum (59): 60'],
    ],
    [
      'day of week 7',
      cj({ schedule: '0 0 * * 7' }),
      ['spec.schedule: Invalid value: "0 0 * * 7": end of range (7) above maximum (6): 7'],
    ],
    [
      'six fields',
      cj({ schedule: '0 0 * * * *' }),
      [
        'spec.schedule: Invalid value: "0 0 * * * *": expected exactly 5 fields, found 6: [0 0 * * * *]',
      ],
    ],
    [
      'unknown descriptor',
      cj({ schedule: '@fortnightly' }),
      ['spec.schedule: Invalid value: "@fortnightly": unrecognized descriptor: @fortnightly'],
    ],
    [
      'bad name',
      cj({ schedule: '0 0 * * funday' }),
      [
        'spec.schedule: Invalid value: "0 0 * * funday": failed to parse int from funday: strconv.Atoi: parsing "funday": invalid syntax',
      ],
    ],
    [
      'TZ in the schedule',
      cj({ schedule: 'TZ=UTC 0 0 * * *' }),
      [
        'spec.schedule: Invalid value: "TZ=UTC 0 0 * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ],
    ],
    ['a known zone', cj({ timeZone: 'Europe/Berlin' }), []],
    [
      'an unknown zone',
      cj({ timeZone: 'Mars/Olympus' }),
      ['spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'],
    ],
    [
      'a zone in the wrong case',
      cj({ timeZone: 'europe/berlin' }),
      ['spec.timeZone: Invalid value: "europe/berlin": unknown time zone europe/berlin'],
    ],
    [
      'an empty zone',
      cj({ timeZone: '' }),
      ['spec.timeZone: Invalid value: "": timeZone must be nil or non-empty string'],
    ],
    [
      'Local',
      cj({ timeZone: 'Local' }),
      [
        'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ],
    ],
    [
      'a POSIX-like zone',
      cj({ timeZone: '../etc/passwd' }),
      ['spec.timeZone: Invalid value: "../etc/passwd": unknown time zone ../etc/passwd'],
    ],
    [
      'negative deadline',
      cj({ startingDeadlineSeconds: -1 }),
      ['spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'negative limits',
      cj({ successfulJobsHistoryLimit: -1, failedJobsHistoryLimit: -2 }),
      [
        'spec.successfulJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
        'spec.failedJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      ],
    ],
    [
      'bad policy',
      cj({ concurrencyPolicy: 'Sometimes' }),
      [
        'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      ],
    ],
    ['52-character name', cj({}, 'a'.repeat(52)), []],
    [
      '53-character name',
      cj({}, 'a'.repeat(53)),
      [`metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`],
    ],
    [
      'restartPolicy unset (Always by default)',
      cj({}, 'x', { restartPolicy: undefined }),
      [
        'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      ],
    ],
    [
      'a selector',
      cj({
        jobTemplate: {
          spec: {
            selector: { matchLabels: { a: 'b' } },
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } },
          },
        },
      }),
      [
        'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      ],
    ],
    [
      'a negative backoffLimit',
      cj({
        jobTemplate: {
          spec: {
            backoffLimit: -1,
            template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } },
          },
        },
      }),
      ['spec.jobTemplate.spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0'],
    ],
  ];
  for (const [name, obj, want] of cases) {
    it(name, () => assert.deepEqual(create(obj).messages, want));
  }
});

describe('CronJob validation on update', () => {
  const stored = create(cj({ timeZone: 'Europe/Berlin' })).object;
  const update = (spec: Spec) => simulateUpdate(cronJobResource, cj(spec), stored).messages;

  it('refuses TZ in the schedule unless the stored one had it', () => {
    assert.deepEqual(update({ schedule: 'CRON_TZ=UTC * * * * *' }), [
      'spec.schedule: Invalid value: "CRON_TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]);
    const legacy: KubeObject = {
      ...stored,
      spec: { ...(stored.spec as Spec), schedule: 'TZ=UTC * * * *', timeZone: undefined },
    };
    assert.deepEqual(
      simulateUpdate(cronJobResource, cj({ schedule: 'TZ=UTC 0 * * * *' }), legacy).messages,
      [],
    );
    assert.deepEqual(
      simulateUpdate(cronJobResource, cj({ schedule: 'TZ=UTC 0 * * * *', timeZone: 'UTC' }), legacy)
        .messages,
      [
        'spec.schedule: Invalid value: "TZ=UTC 0 * * * *": cannot use both timeZone field and TZ or CRON_TZ in schedule',
      ],
    );
  });

  it('checks the zone only when it changes, and allows a long name', () => {
    assert.deepEqual(update({ timeZone: 'Europe/Berlin', suspend: true }), []);
    assert.deepEqual(update({ timeZone: 'Nowhere/Land' }), [
      'spec.timeZone: Invalid value: "Nowhere/Land": unknown time zone Nowhere/Land',
    ]);
  });
});

describe('schedule parser errors (robfig/cron texts)', () => {
  const cases: ReadonlyArray<[string, string]> = [
    ['', 'empty spec string'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['-1 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['@every 5d', 'failed to parse duration @every 5d: time: unknown unit "d" in duration "5d"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    [
      'TZ=Nowhere/Land * * * * *',
      'provided bad location Nowhere/Land: unknown time zone Nowhere/Land',
    ],
  ];
  for (const [spec, want] of cases) {
    it(JSON.stringify(spec), () => {
      const r = parseCronSchedule(spec);
      assert.deepEqual(r.ok ? 'ok' : r.error, want);
    });
  }
});
