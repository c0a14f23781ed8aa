/**
 * batch/v1 Jobs: `SetDefaults_Job`, the selector the strategy generates on create
 * (`generateSelector`), `ValidateJob` / `ValidateJobUpdate` / the status rules the job
 * controller relies on, and the `status.successful` field selector.
 *
 * The generated selector needs the Job's uid and name. Upstream's store fills both before
 * `PrepareForCreate`; this server assigns them after `prepareForCreate` and before validation,
 * so the selector is generated in `prepareForCreate` when the uid is already known and
 * otherwise at the start of `validate` (same result: labels the user set are kept, the
 * controller-uid match label is added when absent).
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Label } from '../validation/dns.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../validation/messages.js';
import { validateJobStatusUpdate } from './batch-job-status.js';
import { validateJobSpecFields } from './batch-job-validation.js';
import {
  readSelector,
  SPEC,
  semanticEqual,
  toLabelSelector,
  withBuiltinMetadata,
} from './common.js';
import {
  ensureObj,
  getNum,
  getObj,
  getStringMap,
  isJsonObject,
  type JsonObject,
  objects,
  setDefault,
  specOf,
} from './json.js';
import { defaultTemplateOf } from './pod-defaults.js';

export { parseIndexIntervals, validateJobSpecFields } from './batch-job-validation.js';

export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';
/** Upstream `math.MaxInt32`: backoffLimit's default when backoffLimitPerIndex is set. */
const MAX_INT32 = 2147483647;

function defaults(obj: KubeObject): void {
  const spec = specOf(obj);
  if (spec === undefined) return;
  if (spec.completions == null && spec.parallelism == null) spec.completions = 1;
  setDefault(spec, 'parallelism', 1);
  setDefault(spec, 'backoffLimit', spec.backoffLimitPerIndex == null ? 6 : MAX_INT32);
  // Upstream copies the template's labels when the Job has none (the same map, so the labels
  // generated later show on the Job too: see generateJobSelector).
  const templateLabels = getStringMap(getObj(getObj(spec, 'template'), 'metadata'), 'labels');
  const meta = obj.metadata ?? {};
  if (templateLabels !== undefined && Object.keys(meta.labels ?? {}).length === 0) {
    obj.metadata = { ...meta, labels: { ...templateLabels } };
  }
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  for (const rule of objects(getObj(spec, 'podFailurePolicy'), 'rules')) {
    for (const pattern of objects(rule, 'onPodConditions')) {
      if (pattern.status == null || pattern.status === '') pattern.status = 'True';
    }
  }
  setDefault(
    spec,
    'podReplacementPolicy',
    spec.podFailurePolicy == null ? 'TerminatingOrFailed' : 'Failed',
  );
  setDefault(spec, 'manualSelector', false);
  defaultTemplateOf(spec);
}

/**
 * Upstream `generateSelector`: template labels `batch.kubernetes.io/job-name`, `job-name`,
 * `batch.kubernetes.io/controller-uid` and `controller-uid` (kept when the user set them, so
 * validation can refuse a conflict), and the selector `batch.kubernetes.io/controller-uid`.
 */
export function generateJobSelector(obj: KubeObject): void {
  const spec = getObj(obj, 'spec');
  const uid = obj.metadata?.uid ?? '';
  if (spec === undefined || spec.manualSelector === true || uid === '') return;
  const template = ensureObj(spec, 'template');
  const tmeta = template && ensureObj(template, 'metadata');
  const labels = tmeta && ensureObj(tmeta, 'labels');
  if (labels === undefined) return;
  const meta = obj.metadata ?? {};
  const jobLabels = meta.labels ?? {};
  const mirrored = Object.keys(jobLabels).length === 0 || semanticEqual(jobLabels, labels);
  const name = meta.name ?? '';
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) setDefault(labels, key, name);
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL])
    setDefault(labels, key, uid);
  // Upstream's Job and template share one labels map when the Job had none of its own.
  const strings = getStringMap(tmeta, 'labels');
  if (mirrored && strings !== undefined) obj.metadata = { ...meta, labels: { ...strings } };
  const selector = ensureObj(spec, 'selector');
  const match = selector && ensureObj(selector, 'matchLabels');
  if (match !== undefined) setDefault(match, CONTROLLER_UID_LABEL, uid);
}
function hasLabel(template: unknown, key: string, want: string): FieldError[] {
  const p = SPEC.child('template', 'metadata', 'labels').key(key);
  const labels = getStringMap(getObj(template, 'metadata'), 'labels') ?? {};
  const actual = labels[key];
  if (actual === undefined) return [fieldErrors.required(p, `must be '${want}'`)];
  return actual === want ? [] : [fieldErrors.invalid(p, actual, `must be '${want}'`)];
}

/** Upstream `validateGeneratedSelector` with RequirePrefixedLabels. */
function validateGeneratedSelector(obj: KubeObject, spec: JsonObject): FieldError[] {
  if (spec.manualSelector === true || spec.selector == null) return [];
  const uid = obj.metadata?.uid ?? '';
  const name = obj.metadata?.name ?? '';
  const errs: FieldError[] = [];
  if (uid === '') errs.push(fieldErrors.required(path('metadata', 'uid'), ''));
  const t = spec.template;
  errs.push(
    ...hasLabel(t, LEGACY_CONTROLLER_UID_LABEL, uid),
    ...hasLabel(t, LEGACY_JOB_NAME_LABEL, name),
  );
  errs.push(...hasLabel(t, CONTROLLER_UID_LABEL, uid), ...hasLabel(t, JOB_NAME_LABEL, name));
  const expected = {
    [CONTROLLER_UID_LABEL]: uid,
    [JOB_NAME_LABEL]: name,
    [LEGACY_CONTROLLER_UID_LABEL]: uid,
    [LEGACY_JOB_NAME_LABEL]: name,
  };
  const selector = toLabelSelector(readSelector(spec.selector, SPEC.child('selector')).sel);
  if (selector !== undefined && !selector.matches(expected)) {
    errs.push(
      fieldErrors.invalid(SPEC.child('selector'), spec.selector, '`selector` not auto-generated'),
    );
  }
  return errs;
}
/** Upstream `ValidateJob`. */
function validate(obj: KubeObject): FieldError[] {
  generateJobSelector(obj);
  const spec = getObj(obj, 'spec') ?? {};
  const errs = [...validateGeneratedSelector(obj, spec), ...validateJobSpecFields(spec, SPEC)];
  const completions = getNum(spec, 'completions');
  if (spec.completionMode === 'Indexed' && completions !== undefined && completions > 0) {
    const name = obj.metadata?.name ?? '';
    const hostname = `${name}-${completions - 1}`;
    if (isDNS1123Label(hostname).length > 0)
      errs.push(
        fieldErrors.invalid(
          path('metadata', 'name'),
          name,
          `will not able to create pod with invalid DNS label: ${hostname}`,
        ),
      );
  }
  return errs;
}

/** What a suspended, never-started Job may change in its template (upstream AllowMutableSchedulingDirectives). */
function schedulingView(template: unknown, from: unknown): unknown {
  if (!isJsonObject(template) || !isJsonObject(from)) return template;
  const meta = { ...(getObj(template, 'metadata') ?? {}) };
  const fromMeta = getObj(from, 'metadata') ?? {};
  meta.labels = fromMeta.labels;
  meta.annotations = fromMeta.annotations;
  const spec = { ...(getObj(template, 'spec') ?? {}) };
  const fromSpec = getObj(from, 'spec') ?? {};
  for (const key of ['nodeSelector', 'tolerations', 'schedulingGates']) spec[key] = fromSpec[key];
  const affinity = getObj(spec, 'affinity');
  const fromAffinity = getObj(fromSpec, 'affinity');
  const rest = { ...(affinity ?? {}), nodeAffinity: fromAffinity?.nodeAffinity };
  spec.affinity =
    fromAffinity === undefined && semanticEqual({ ...rest, nodeAffinity: undefined }, {})
      ? undefined
      : rest;
  return { ...template, metadata: meta, spec };
}

function immutableField(spec: JsonObject, old: JsonObject, key: string): FieldError[] {
  return semanticEqual(spec[key], old[key])
    ? []
    : [fieldErrors.invalid(SPEC.child(key), spec[key] ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}

/** Upstream `ValidateJobSpecUpdate` (elastic Indexed Jobs allowed, as in 1.33). */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const oldSpec = getObj(old, 'spec') ?? {};
  const errs: FieldError[] = [];
  if (spec.completionMode === 'Indexed' && !semanticEqual(spec.completions, oldSpec.completions)) {
    if (spec.completions != null && spec.completions !== spec.parallelism)
      errs.push(
        fieldErrors.invalid(
          SPEC.child('completions'),
          spec.completions,
          'can only be modified in tandem with spec.parallelism',
        ),
      );
  } else errs.push(...immutableField(spec, oldSpec, 'completions'));
  errs.push(...immutableField(spec, oldSpec, 'selector'));
  const mutableScheduling = oldSpec.suspend === true && getObj(old, 'status')?.startTime == null;
  const oldTemplate = mutableScheduling
    ? schedulingView(oldSpec.template, spec.template)
    : oldSpec.template;
  if (!semanticEqual(spec.template, oldTemplate))
    errs.push(
      fieldErrors.invalid(SPEC.child('template'), spec.template ?? null, FIELD_IMMUTABLE_ERROR_MSG),
    );
  for (const key of [
    'completionMode',
    'podFailurePolicy',
    'backoffLimitPerIndex',
    'managedBy',
    'successPolicy',
  ])
    errs.push(...immutableField(spec, oldSpec, key));
  return errs;
}
/** batch/v1 `jobs` (category `all`, `/status`). */
export const jobResource: ResourceDefinition = {
  group: 'batch',
  version: 'v1',
  kind: 'Job',
  listKind: 'JobList',
  plural: 'jobs',
  singular: 'job',
  namespaced: true,
  categories: ['all'],
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults,
    prepareForCreate(obj) {
      obj.status = {};
      generateJobSelector(obj);
    },
    validate,
    validateUpdate,
    validateStatusUpdate: validateJobStatusUpdate,
    selectableFields(obj) {
      return { 'status.successful': String(getNum(getObj(obj, 'status'), 'succeeded') ?? 0) };
    },
  }),
};
