/**
 * Upstream's batch validation for Jobs (`pkg/apis/batch/validation`): the JobSpec rules of
 * `validateJobSpec` (also what a CronJob's `jobTemplate.spec` must pass, hence the base path),
 * the index-interval format of `completedIndexes` / `failedIndexes` / `succeededIndexes`, and
 * the status rules of `ValidateJobStatusUpdate` a writer can break by mistake.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, OMIT_VALUE } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import { isQualifiedName } from '../validation/label-names.js';
import { nonNegativeInt } from './apps-common.js';
import { readSelector, toLabelSelector } from './common.js';
import { getArr, getNum, getObj, getStr, getStringMap, type JsonObject, objects } from './json.js';
import { validatePodTemplateSpec } from './pod-spec-validation.js';

const MAX_PARALLELISM_INDEXED = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const MAX_RULES = 20;
const MAX_EXIT_CODES = 255;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const OPERATORS = ['In', 'NotIn'];
const CONDITION_STATUSES = ['False', 'True', 'Unknown'];
const REPLACEMENT_POLICIES = ['Failed', 'TerminatingOrFailed'];
/** Upstream `parseIndexInterval` over `"1,3-5,7"`: the intervals, or the parse error. */
export function parseIndexIntervals(
  text: string,
  completions: number,
): { intervals: [number, number][]; error?: string } {
  const intervals: [number, number][] = [];
  if (text === '') return { intervals };
  let last: number | undefined;
  for (const part of text.split(',')) {
    const limits = part.split('-');
    if (limits.length > 2) {
      const why = `the fragment ${JSON.stringify(part)} violates the requirement that an index interval can have at most two parts separated by '-'`;
      return { intervals, error: why };
    }
    const nums: number[] = [];
    for (const s of limits) {
      if (!/^[+-]?\d+$/.test(s)) {
        return {
          intervals,
          error: `cannot convert string to integer for index: ${JSON.stringify(s)}`,
        };
      }
      const n = Number(s);
      if (n >= completions) return { intervals, error: `too large index: ${JSON.stringify(s)}` };
      nums.push(n);
    }
    const x = nums[0] ?? 0;
    const y = nums[1] ?? x;
    if (nums.length > 1 && x >= y) {
      return { intervals, error: `non-increasing order, previous: ${x}, current: ${y}` };
    }
    if (last !== undefined && last >= x) {
      return { intervals, error: `non-increasing order, previous: ${last}, current: ${x}` };
    }
    intervals.push([x, y]);
    last = y;
  }
  return { intervals };
}

function validateExitCodes(req: JsonObject, p: FieldPath, containers: Set<string>): FieldError[] {
  const errs: FieldError[] = [];
  const op = getStr(req, 'operator') ?? '';
  if (op === '')
    errs.push(fieldErrors.required(p.child('operator'), `valid values: ["In" "NotIn"]`));
  else if (!OPERATORS.includes(op))
    errs.push(fieldErrors.notSupported(p.child('operator'), op, OPERATORS));
  const container = getStr(req, 'containerName');
  if (container !== undefined && !containers.has(container)) {
    const why = 'must be one of the container or initContainer names in the pod template';
    errs.push(fieldErrors.invalid(p.child('containerName'), container, why));
  }
  const values = (getArr(req, 'values') ?? []).filter((v): v is number => typeof v === 'number');
  const vp = p.child('values');
  if (values.length === 0)
    errs.push(fieldErrors.invalid(vp, values, 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODES)
    errs.push(fieldErrors.tooMany(vp, values.length, MAX_EXIT_CODES));
  const seen = new Set<number>();
  values.forEach((v, j) => {
    if (op === 'In' && v === 0)
      errs.push(fieldErrors.invalid(vp.index(j), v, 'must not be 0 for the In operator'));
    if (seen.has(v)) errs.push(fieldErrors.duplicate(vp.index(j), v));
    seen.add(v);
  });
  if (values.some((v, j) => j > 0 && (values[j - 1] ?? 0) > v))
    errs.push(fieldErrors.invalid(vp, values, 'must be ordered'));
  return errs;
}

function validateRule(
  spec: JsonObject,
  rule: JsonObject,
  p: FieldPath,
  containers: Set<string>,
): FieldError[] {
  const errs: FieldError[] = [];
  const action = getStr(rule, 'action') ?? '';
  if (action === '')
    errs.push(
      fieldErrors.required(
        p.child('action'),
        `valid values: ["Count" "FailIndex" "FailJob" "Ignore"]`,
      ),
    );
  else if (action === 'FailIndex') {
    if (spec.backoffLimitPerIndex == null)
      errs.push(
        fieldErrors.invalid(
          p.child('action'),
          action,
          'requires the backoffLimitPerIndex to be set',
        ),
      );
  } else if (!ACTIONS.includes(action))
    errs.push(fieldErrors.notSupported(p.child('action'), action, ACTIONS));
  const exit = getObj(rule, 'onExitCodes');
  const conditions = objects(rule, 'onPodConditions');
  if (exit !== undefined) errs.push(...validateExitCodes(exit, p.child('onExitCodes'), containers));
  const cp = p.child('onPodConditions');
  if (conditions.length > MAX_RULES)
    errs.push(fieldErrors.tooMany(cp, conditions.length, MAX_RULES));
  conditions.forEach((c, j) => {
    for (const m of isQualifiedName(getStr(c, 'type') ?? ''))
      errs.push(fieldErrors.invalid(cp.index(j).child('type'), c.type ?? '', m));
    const status = getStr(c, 'status') ?? '';
    if (status === '')
      errs.push(
        fieldErrors.required(
          cp.index(j).child('status'),
          `valid values: ["False" "True" "Unknown"]`,
        ),
      );
    else if (!CONDITION_STATUSES.includes(status))
      errs.push(fieldErrors.notSupported(cp.index(j).child('status'), status, CONDITION_STATUSES));
  });
  if (exit !== undefined && conditions.length > 0)
    errs.push(
      fieldErrors.invalid(
        p,
        OMIT_VALUE,
        'specifying both OnExitCodes and OnPodConditions is not supported',
      ),
    );
  if (exit === undefined && conditions.length === 0)
    errs.push(
      fieldErrors.invalid(
        p,
        OMIT_VALUE,
        'specifying one of OnExitCodes and OnPodConditions is required',
      ),
    );
  return errs;
}

function validatePodFailurePolicy(
  spec: JsonObject,
  policy: JsonObject,
  base: FieldPath,
): FieldError[] {
  const rules = objects(policy, 'rules');
  const p = base.child('podFailurePolicy', 'rules');
  const errs = rules.length > MAX_RULES ? [fieldErrors.tooMany(p, rules.length, MAX_RULES)] : [];
  const podSpec = getObj(getObj(spec, 'template'), 'spec');
  const containers = new Set(
    [...objects(podSpec, 'containers'), ...objects(podSpec, 'initContainers')].map(
      (c) => getStr(c, 'name') ?? '',
    ),
  );
  rules.forEach((r, i) => {
    errs.push(...validateRule(spec, r, p.index(i), containers));
  });
  return errs;
}

function validateSuccessPolicy(
  spec: JsonObject,
  policy: JsonObject,
  base: FieldPath,
): FieldError[] {
  const p = base.child('successPolicy');
  if (spec.completionMode !== 'Indexed')
    return [fieldErrors.invalid(p, policy, 'requires indexed completion mode')];
  const rules = objects(policy, 'rules');
  const errs: FieldError[] = [];
  const rp = p.child('rules');
  if (rules.length === 0)
    errs.push(
      fieldErrors.required(
        rp,
        'at least one rules must be specified when the successPolicy is specified',
      ),
    );
  if (rules.length > MAX_RULES) errs.push(fieldErrors.tooMany(rp, rules.length, MAX_RULES));
  const completions = getNum(spec, 'completions') ?? 0;
  rules.forEach((rule, i) => {
    const indexes = getStr(rule, 'succeededIndexes');
    const count = getNum(rule, 'succeededCount');
    if (indexes === undefined && count === undefined)
      errs.push(
        fieldErrors.required(
          rp.index(i),
          'at least one of succeededCount or succeededIndexes must be specified',
        ),
      );
    let total = 0;
    if (indexes !== undefined) {
      const parsed = parseIndexIntervals(indexes, completions);
      if (parsed.error !== undefined)
        errs.push(
          fieldErrors.invalid(
            rp.index(i).child('succeededIndexes'),
            indexes,
            `error parsing succeededIndexes: ${parsed.error}`,
          ),
        );
      total = parsed.intervals.reduce((n, [x, y]) => n + y - x + 1, 0);
    }
    if (count !== undefined) {
      const cp = rp.index(i).child('succeededCount');
      errs.push(...nonNegativeInt(rule, 'succeededCount', rp.index(i)));
      if (count > completions)
        errs.push(
          fieldErrors.invalid(
            cp,
            count,
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        );
      if (indexes !== undefined && count > total)
        errs.push(
          fieldErrors.invalid(
            cp,
            count,
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        );
    }
  });
  return errs;
}

function validateIndexedLimits(spec: JsonObject, base: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const mode = getStr(spec, 'completionMode');
  const parallelism = getNum(spec, 'parallelism');
  const completions = getNum(spec, 'completions');
  const maxFailed = getNum(spec, 'maxFailedIndexes');
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed')
    errs.push(
      fieldErrors.notSupported(base.child('completionMode'), mode, ['NonIndexed', 'Indexed']),
    );
  if (mode === 'Indexed') {
    if (completions === undefined)
      errs.push(fieldErrors.required(base.child('completions'), 'when completion mode is Indexed'));
    if (parallelism !== undefined && parallelism > MAX_PARALLELISM_INDEXED)
      errs.push(
        fieldErrors.invalid(
          base.child('parallelism'),
          parallelism,
          `must be less than or equal to ${MAX_PARALLELISM_INDEXED} when completion mode is Indexed`,
        ),
      );
    if (completions !== undefined && maxFailed !== undefined && maxFailed > completions)
      errs.push(
        fieldErrors.invalid(
          base.child('maxFailedIndexes'),
          maxFailed,
          'must be less than or equal to completions',
        ),
      );
    if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES)
      errs.push(
        fieldErrors.invalid(
          base.child('maxFailedIndexes'),
          maxFailed,
          `must be less than or equal to ${MAX_FAILED_INDEXES}`,
        ),
      );
  } else {
    for (const key of ['backoffLimitPerIndex', 'maxFailedIndexes']) {
      if (spec[key] != null)
        errs.push(
          fieldErrors.invalid(base.child(key), spec[key], 'requires indexed completion mode'),
        );
    }
  }
  return errs;
}

function validateRestartPolicy(spec: JsonObject, base: FieldPath): FieldError[] {
  const policy = getStr(getObj(getObj(spec, 'template'), 'spec'), 'restartPolicy') ?? '';
  const p = base.child('template', 'spec', 'restartPolicy');
  if (policy === 'Always' || policy === '')
    return [fieldErrors.required(p, 'valid values: "OnFailure", "Never"')];
  if (policy !== 'OnFailure' && policy !== 'Never')
    return [fieldErrors.notSupported(p, policy, ['OnFailure', 'Never'])];
  if (spec.podFailurePolicy != null && policy !== 'Never')
    return [
      fieldErrors.invalid(
        p,
        policy,
        'only "Never" is supported when podFailurePolicy is specified',
      ),
    ];
  return [];
}

/** Upstream `validateJobSpec` plus `ValidateJobSpec`'s selector rules. */
export function validateJobSpecFields(spec: JsonObject, base: FieldPath): FieldError[] {
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
    errs.push(...nonNegativeInt(spec, key));
  }
  if (spec.maxFailedIndexes != null && spec.backoffLimitPerIndex == null)
    errs.push(
      fieldErrors.required(
        base.child('backoffLimitPerIndex'),
        'when maxFailedIndexes is specified',
      ),
    );
  errs.push(...validateIndexedLimits(spec, base));
  const pfp = getObj(spec, 'podFailurePolicy');
  if (pfp !== undefined) errs.push(...validatePodFailurePolicy(spec, pfp, base));
  const sp = getObj(spec, 'successPolicy');
  if (sp !== undefined) errs.push(...validateSuccessPolicy(spec, sp, base));
  const replacement = getStr(spec, 'podReplacementPolicy');
  if (replacement !== undefined) {
    const allowed = pfp !== undefined ? ['Failed'] : REPLACEMENT_POLICIES;
    if (!allowed.includes(replacement))
      errs.push(fieldErrors.notSupported(base.child('podReplacementPolicy'), replacement, allowed));
  }
  errs.push(
    ...validatePodTemplateSpec(spec.template, base.child('template')),
    ...validateRestartPolicy(spec, base),
  );
  if (spec.selector == null) errs.push(fieldErrors.required(base.child('selector'), ''));
  const { sel, errs: selErrs } =
    spec.selector == null
      ? { sel: undefined, errs: [] }
      : readSelector(spec.selector, base.child('selector'));
  errs.push(...selErrs, ...validateLabelSelectorObject(sel, base.child('selector')));
  const selector = toLabelSelector(sel);
  const labels = getStringMap(getObj(getObj(spec, 'template'), 'metadata'), 'labels') ?? {};
  if (selector !== undefined && !selector.isEmpty() && !selector.matches(labels)) {
    const shown = getObj(getObj(spec, 'template'), 'metadata')?.labels ?? null;
    errs.push(
      fieldErrors.invalid(
        base.child('template', 'metadata', 'labels'),
        shown,
        '`selector` does not match template `labels`',
      ),
    );
  }
  return errs;
}
