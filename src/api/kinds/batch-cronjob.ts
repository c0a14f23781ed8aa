/**
 * batch/v1 CronJobs: `SetDefaults_CronJob` (concurrencyPolicy Allow, suspend false, history
 * limits 3 and 1) with the job template's pod defaults, and `ValidateCronJobCreate` /
 * `ValidateCronJobUpdate`: the schedule parses as robfig/cron's standard spec
 * (`batch-cronjob-schedule.ts`), `TZ=`/`CRON_TZ=` in it is refused in favour of `spec.timeZone`
 * (still allowed on update when the stored schedule already had it), `spec.timeZone` is a known
 * IANA name (checked on create, and on update when it changed), non-negative deadline and
 * history limits, a name of at most 52 characters on create (the controller appends an
 * 11-character `-<minutes>` to name its Jobs, and a Job name is at most 63), and the job
 * template validated as upstream's `ValidateJobTemplateSpec`.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { nonNegativeInt } from './apps-common.js';
import { parseCronSchedule, timeZoneError } from './batch-cronjob-schedule.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { ensureObj, getObj, getStr, type JsonObject, setDefault, setDefaultStr } from './json.js';
import { defaultTemplateOf } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';

/** Upstream: DNS1035LabelMaxLength (63) − 11, the `-<minutes since epoch>` suffix of Job names. */
export const MAX_CRONJOB_NAME_LENGTH = 52;
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];
const COMPLETION_MODES = ['NonIndexed', 'Indexed'];
const JOB_TEMPLATE = SPEC.child('jobTemplate');
const JOB_SPEC = JOB_TEMPLATE.child('spec');
/** Upstream `validTimeZoneCharacters`: one path component of an IANA name (digits, + tolerated). */
const TIME_ZONE_COMPONENT = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** `SetDefaults_CronJob` and the pod defaults of `spec.jobTemplate.spec.template`. */
function defaults(obj: KubeObject): void {
  const spec = getObj(obj, 'spec');
  if (spec === undefined) return;
  setDefaultStr(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  const jobTemplate = ensureObj(spec, 'jobTemplate');
  const jobSpec = jobTemplate && ensureObj(jobTemplate, 'spec');
  if (jobSpec !== undefined) defaultTemplateOf(jobSpec);
}

/** The parse error of the schedule (the TZ rules depend on create or update). */
function validateSchedule(spec: JsonObject): FieldError[] {
  const p = SPEC.child('schedule');
  const schedule = getStr(spec, 'schedule') ?? '';
  if (schedule === '') return [fieldErrors.required(p, '')];
  const parsed = parseCronSchedule(schedule);
  return parsed.ok ? [] : [fieldErrors.invalid(p, schedule, parsed.error)];
}

/** Upstream `validateScheduleFormat`'s TZ rule; `oldSchedule` on update. */
function validateScheduleTZ(spec: JsonObject, oldSchedule: string | undefined): FieldError[] {
  const schedule = getStr(spec, 'schedule') ?? '';
  if (!schedule.includes('TZ')) return [];
  const p = SPEC.child('schedule');
  const allowTZ = oldSchedule?.includes('TZ') === true;
  if (!allowTZ)
    return [
      fieldErrors.invalid(
        p,
        schedule,
        'cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
      ),
    ];
  if (spec.timeZone != null)
    return [
      fieldErrors.invalid(
        p,
        schedule,
        'cannot use both timeZone field and TZ or CRON_TZ in schedule',
      ),
    ];
  return [];
}

/** Upstream `validateTimeZone`. */
export function validateTimeZone(timeZone: unknown, p: FieldPath): FieldError[] {
  if (timeZone === undefined || timeZone === null) return [];
  if (typeof timeZone !== 'string') return [fieldErrors.invalid(p, timeZone, 'must be a string')];
  if (timeZone === '')
    return [fieldErrors.invalid(p, timeZone, 'timeZone must be nil or non-empty string')];
  const badPart = timeZone
    .split('/')
    .some(
      (part) =>
        part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_COMPONENT.test(part),
    );
  if (badPart) return [fieldErrors.invalid(p, timeZone, `unknown time zone ${timeZone}`)];
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local')
    errs.push(
      fieldErrors.invalid(
        p,
        timeZone,
        'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      ),
    );
  const unknown = timeZone === 'Local' ? undefined : timeZoneError(timeZone);
  if (unknown !== undefined) errs.push(fieldErrors.invalid(p, timeZone, unknown));
  return errs;
}

function validateConcurrencyPolicy(spec: JsonObject): FieldError[] {
  const p = SPEC.child('concurrencyPolicy');
  const policy = getStr(spec, 'concurrencyPolicy') ?? '';
  if (policy === '') return [fieldErrors.required(p, '')];
  return CONCURRENCY_POLICIES.includes(policy)
    ? []
    : [fieldErrors.notSupported(p, policy, CONCURRENCY_POLICIES)];
}

function validateRestartPolicy(jobSpec: JsonObject): FieldError[] {
  const p = JOB_SPEC.child('template', 'spec', 'restartPolicy');
  const policy = getStr(getObj(getObj(jobSpec, 'template'), 'spec'), 'restartPolicy') ?? '';
  // The pod defaults turn an unset restartPolicy into Always, which a Job may not use.
  if (policy === '' || policy === 'Always')
    return [fieldErrors.required(p, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never')
    return [fieldErrors.notSupported(p, policy, ['OnFailure', 'Never'])];
  if (jobSpec.podFailurePolicy != null && policy !== 'Never')
    return [
      fieldErrors.invalid(
        p,
        policy,
        'only "Never" is supported when podFailurePolicy is specified',
      ),
    ];
  return [];
}

/** The index rules of upstream `validateJobSpec` that a template can break. */
function validateCompletionMode(jobSpec: JsonObject): FieldError[] {
  const mode = getStr(jobSpec, 'completionMode');
  const errs: FieldError[] = [];
  if (mode !== undefined && !COMPLETION_MODES.includes(mode))
    errs.push(fieldErrors.notSupported(JOB_SPEC.child('completionMode'), mode, COMPLETION_MODES));
  if (mode === 'Indexed' && jobSpec.completions == null)
    errs.push(
      fieldErrors.required(JOB_SPEC.child('completions'), 'when completion mode is Indexed'),
    );
  if (mode !== 'Indexed') {
    for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes']) {
      if (jobSpec[key] != null)
        errs.push(
          fieldErrors.invalid(
            JOB_SPEC.child(key),
            jobSpec[key],
            'requires indexed completion mode',
          ),
        );
    }
  }
  return errs;
}

/**
 * Upstream `ValidateJobTemplateSpec`: the JobSpec rules (counts, completion mode, the pod
 * template, a restartPolicy of OnFailure or Never) and no selector, which is generated for
 * each Job. The podFailurePolicy and successPolicy rules are the Job kind's (not repeated here).
 */
function validateJobTemplate(spec: JsonObject): FieldError[] {
  const jobSpec = getObj(getObj(spec, 'jobTemplate'), 'spec') ?? {};
  const errs: FieldError[] = [];
  for (const key of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
    'maxFailedIndexes',
  ]) {
    errs.push(...nonNegativeInt(jobSpec, key, JOB_SPEC));
  }
  errs.push(...validateCompletionMode(jobSpec));
  errs.push(...validatePodTemplateSpec(jobSpec.template, JOB_SPEC.child('template')));
  errs.push(...validateRestartPolicy(jobSpec));
  if (jobSpec.selector != null)
    errs.push(
      fieldErrors.invalid(
        JOB_SPEC.child('selector'),
        jobSpec.selector,
        '`selector` will be auto-generated',
      ),
    );
  if (jobSpec.manualSelector === true)
    errs.push(fieldErrors.notSupported(JOB_SPEC.child('manualSelector'), true, ['nil', 'false']));
  return errs;
}

/** What create and update share (upstream `validateCronJobSpec` minus its old-spec rules). */
function validate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  return [
    ...validateSchedule(spec),
    ...nonNegativeInt(spec, 'startingDeadlineSeconds'),
    ...validateConcurrencyPolicy(spec),
    ...validateJobTemplate(spec),
    ...nonNegativeInt(spec, 'successfulJobsHistoryLimit'),
    ...nonNegativeInt(spec, 'failedJobsHistoryLimit'),
  ];
}

/** `ValidateCronJobCreate`'s own rules: no TZ in the schedule, a known zone, a short name. */
function validateCreate(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = [
    ...validateScheduleTZ(spec, undefined),
    ...validateTimeZone(spec.timeZone, SPEC.child('timeZone')),
  ];
  const name = obj.metadata?.name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH)
    errs.push(
      fieldErrors.invalid(path('metadata', 'name'), name, 'must be no more than 52 characters'),
    );
  return errs;
}

/** `ValidateCronJobUpdate`'s: TZ kept only if it was there, the zone checked when it changed. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const oldSpec = getObj(old, 'spec') ?? {};
  const errs = validateScheduleTZ(spec, getStr(oldSpec, 'schedule') ?? '');
  if ((spec.timeZone ?? null) !== (oldSpec.timeZone ?? null))
    errs.push(...validateTimeZone(spec.timeZone, SPEC.child('timeZone')));
  return errs;
}

/** batch/v1 `cronjobs` (`cj`, category `all`, `/status`). */
export const cronJobResource: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  kind: 'CronJob',
  listKind: 'CronJobList',
  plural: 'cronjobs',
  singular: 'cronjob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults,
    prepareForCreate(obj) {
      // Upstream `PrepareForCreate`: a new CronJob's status is empty.
      obj.status = {};
    },
    validate,
    validateCreate,
    validateUpdate,
  }),
};
