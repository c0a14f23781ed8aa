/**
 * core/v1 Nodes: `status.allocatable` defaults to `capacity`, `podCIDR`/`podCIDRs` kept in
 * step, taints and pod CIDRs validated, and the `spec.unschedulable` field selector. Nodes may
 * carry their status on create (the kubelet registers with it), so it is not reset.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isValidCIDR, parseCIDRSloppy } from '../validation/ip.js';
import { isValidLabelValue } from '../validation/label-names.js';
import { validateLabelName } from '../validation/metadata-fields.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { getArr, getObj, getStr, objects } from './json.js';
import { defaultResourceList } from './pod-defaults.js';

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const CIDR_CHANGE = 'node updates may not change podCIDR except from "" to valid';

function defaults(obj: KubeObject): void {
  const status = getObj(obj, 'status');
  if (status !== undefined) {
    const capacity = getObj(status, 'capacity');
    defaultResourceList(capacity);
    if (
      capacity !== undefined &&
      (status.allocatable === undefined || status.allocatable === null)
    ) {
      status.allocatable = { ...capacity };
    }
    defaultResourceList(getObj(status, 'allocatable'));
  }
  const spec = getObj(obj, 'spec');
  if (spec === undefined) return;
  // The v1 conversion keeps the singular field equal to the first of the list.
  const cidr = getStr(spec, 'podCIDR') ?? '';
  const cidrs = getArr(spec, 'podCIDRs') ?? [];
  if (cidrs.length === 0 && cidr !== '') spec.podCIDRs = [cidr];
  else if (typeof cidrs[0] === 'string') spec.podCIDR = cidrs[0];
}

/** Upstream `validateNodeTaints`. */
function validateTaints(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(getObj(obj, 'spec'), 'taints').forEach((t, i) => {
    const p = SPEC.child('taints').index(i);
    const key = getStr(t, 'key') ?? '';
    const value = getStr(t, 'value') ?? '';
    const effect = getStr(t, 'effect') ?? '';
    errs.push(...validateLabelName(key, p.child('key')));
    const msgs = isValidLabelValue(value);
    if (msgs.length > 0) errs.push(fieldErrors.invalid(p.child('value'), value, msgs.join(';')));
    if (effect === '') errs.push(fieldErrors.required(p.child('effect'), ''));
    else if (!TAINT_EFFECTS.includes(effect))
      errs.push(fieldErrors.notSupported(p.child('effect'), effect, TAINT_EFFECTS));
    const unique = `${effect}\u0000${key}`;
    if (seen.has(unique)) {
      errs.push({
        type: 'FieldValueDuplicate',
        field: String(p),
        badValue: t,
        detail: 'taints must be unique by key and effect pair',
      });
    }
    seen.add(unique);
  });
  return errs;
}

function validatePodCIDRs(obj: KubeObject): FieldError[] {
  const cidrs = (getArr(getObj(obj, 'spec'), 'podCIDRs') ?? []).map((c) =>
    typeof c === 'string' ? c : '',
  );
  const errs: FieldError[] = [];
  errs.push(...cidrs.flatMap((c, i) => isValidCIDR(SPEC.child('podCIDRs').index(i), c)));
  if (cidrs.length > 2) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('podCIDRs'),
        cidrs,
        'may specify no more than one CIDR for each IP family',
      ),
    );
  } else if (cidrs.length === 2 && errs.length === 0) {
    const [a, b] = cidrs.map((c) => parseCIDRSloppy(c)?.family);
    if (a === b)
      errs.push(
        fieldErrors.invalid(
          SPEC.child('podCIDRs'),
          cidrs,
          'may specify no more than one CIDR for each IP family',
        ),
      );
  }
  return errs;
}

/** Upstream `ValidateNodeUpdate`: pod CIDRs and the provider ID are set once. */
function validateUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec');
  const oldSpec = getObj(old, 'spec');
  const errs: FieldError[] = [];
  const oldCIDRs = getArr(oldSpec, 'podCIDRs') ?? [];
  const newCIDRs = getArr(spec, 'podCIDRs') ?? [];
  if (
    oldCIDRs.length > 0 &&
    (oldCIDRs.length !== newCIDRs.length || oldCIDRs.some((c, i) => c !== newCIDRs[i]))
  ) {
    errs.push(fieldErrors.forbidden(SPEC.child('podCIDRs'), CIDR_CHANGE));
  }
  const oldProvider = getStr(oldSpec, 'providerID') ?? '';
  if (oldProvider !== '' && oldProvider !== (getStr(spec, 'providerID') ?? '')) {
    errs.push(
      fieldErrors.forbidden(
        SPEC.child('providerID'),
        'node updates may not change providerID except from "" to valid',
      ),
    );
  }
  return errs;
}

/** core/v1 `nodes` (`no`, cluster-scoped, `/status`). */
export const nodeResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Node',
  listKind: 'NodeList',
  plural: 'nodes',
  singular: 'node',
  namespaced: false,
  shortNames: ['no'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults,
    validate: (obj) => [...validateTaints(obj), ...validatePodCIDRs(obj)],
    validateUpdate,
    selectableFields(obj) {
      return {
        'spec.unschedulable': getObj(obj, 'spec')?.unschedulable === true ? 'true' : 'false',
      };
    },
  }),
};
