/**
 * The status rules of upstream's `ValidateJobStatusUpdate` (`pkg/apis/batch/validation`) that
 * a status writer can break by mistake: negative or decreasing counters, duplicate uncounted
 * pod UIDs, Complete together with Failed, a terminal condition switched off, malformed
 * completed/failed index lists.
 *
 * @module
 */
import { type FieldError, fieldErrors, OMIT_VALUE, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import { nonNegativeInt } from './apps-common.js';
import { parseIndexIntervals } from './batch-job-validation.js';
import { getArr, getNum, getObj, getStr, type JsonObject, objects } from './json.js';

function conditionTrue(status: JsonObject | undefined, type: string): boolean {
  return objects(status, 'conditions').some((c) => c.type === type && c.status === 'True');
}

const STATUS = path('status');

function conditionError(detail: string): FieldError {
  return fieldErrors.invalid(STATUS.child('conditions'), OMIT_VALUE, detail);
}

function uncountedErrors(status: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  for (const key of ['succeeded', 'failed']) {
    (getArr(getObj(status, 'uncountedTerminatedPods'), key) ?? []).forEach((uid, i) => {
      const p = STATUS.child('uncountedTerminatedPods', key).index(i);
      if (uid === '') errs.push(fieldErrors.invalid(p, uid, 'must not be empty'));
      else if (seen.has(uid)) errs.push(fieldErrors.duplicate(p, uid));
      seen.add(uid);
    });
  }
  return errs;
}

/** Upstream `validateJobStatus`: counters, uncounted UIDs, Complete with Failed, index formats. */
function validateJobStatus(status: JsonObject, spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['active', 'succeeded', 'failed', 'ready', 'terminating'])
    errs.push(...nonNegativeInt(status, key, STATUS));
  errs.push(...uncountedErrors(status));
  if (conditionTrue(status, 'Complete') && conditionTrue(status, 'Failed'))
    errs.push(conditionError('cannot set Complete=True and Failed=true conditions'));
  const completions = getNum(spec, 'completions');
  for (const key of ['completedIndexes', 'failedIndexes']) {
    const text = getStr(status, key);
    if (completions === undefined || text === undefined) continue;
    const error = parseIndexIntervals(text, completions).error;
    if (error !== undefined)
      errs.push(fieldErrors.invalid(STATUS.child(key), text, `error parsing ${key}: ${error}`));
  }
  return errs;
}

/** The rules of upstream `ValidateJobStatusUpdate` a status writer can break by mistake. */
export function validateJobStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const status = getObj(obj, 'status') ?? {};
  const oldStatus = getObj(old, 'status') ?? {};
  const errs = validateJobStatus(status, getObj(obj, 'spec') ?? {});
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(oldStatus, type) && !conditionTrue(status, type))
      errs.push(conditionError(`cannot disable the terminal ${type}=True condition`));
  }
  for (const key of ['failed', 'succeeded']) {
    const now = getNum(status, key) ?? 0;
    if (now < (getNum(oldStatus, key) ?? 0))
      errs.push(fieldErrors.invalid(STATUS.child(key), now, `cannot decrease the ${key} counter`));
  }
  return errs;
}
