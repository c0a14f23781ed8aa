/**
 * scheduling.k8s.io/v1 PriorityClasses: `SetDefaults_PriorityClass`, `ValidatePriorityClass`
 * and `ValidatePriorityClassUpdate` (`pkg/apis/scheduling/validation`), and the two system
 * classes every cluster has (`scheduling.SystemPriorityClasses`).
 *
 * What upstream checks against other objects (only one `globalDefault`, the system classes
 * cannot be deleted) is cluster state, so it lives in the API server's Priority admission
 * (`src/apiserver/admission/priority.ts`); the rules here see one object at a time.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { immutable, withBuiltinMetadata } from './common.js';
import { get, getBool, getNum, setDefault } from './json.js';

/** Upstream `scheduling.SystemPriorityClassPrefix`: names starting with it are reserved. */
export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** Upstream `HighestUserDefinablePriority`: one billion; above it only system classes. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** Upstream `SystemCriticalPriority`: twice the user maximum. */
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
export const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';
export const PREEMPT_NEVER = 'Never';
const PREEMPTION_POLICIES = [PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER];

/** One of upstream's built-in classes, as the API server creates it at startup. */
export interface SystemPriorityClass {
  readonly name: string;
  readonly value: number;
  readonly description: string;
}

/** Upstream `systemPriorityClasses` (`pkg/apis/scheduling/types.go` and `helpers.go`). */
export const SYSTEM_PRIORITY_CLASSES: readonly SystemPriorityClass[] = [
  {
    name: 'system-node-critical',
    // 1000 above cluster-critical so node agents win over cluster add-ons.
    value: SYSTEM_CRITICAL_PRIORITY + 1000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: SYSTEM_CRITICAL_PRIORITY,
    description:
      'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

/** The system class named `name`, if it is one. */
export function systemPriorityClass(name: string): SystemPriorityClass | undefined {
  return SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
}

/** A system class as a stored object (what the bootstrap creates). */
export function systemPriorityClassObject(c: SystemPriorityClass): KubeObject {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: c.name },
    value: c.value,
    description: c.description,
    preemptionPolicy: PREEMPT_LOWER_PRIORITY,
  };
}

/** Upstream `IsKnownSystemPriorityClass`: the error text when a `system-` class is not one. */
function unknownSystemClassError(name: string, value: number, globalDefault: boolean): string {
  const known = systemPriorityClass(name);
  if (known === undefined) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return '';
}

/** Upstream `ValidatePreemptionPolicy`. */
function validatePreemptionPolicy(policy: unknown): FieldError[] {
  const p = path('preemptionPolicy');
  if (policy === undefined || policy === null) return [];
  if (policy === '') return [fieldErrors.required(p, '')];
  if (typeof policy !== 'string' || !PREEMPTION_POLICIES.includes(policy))
    return [fieldErrors.notSupported(p, policy, PREEMPTION_POLICIES)];
  return [];
}

/** Upstream `ValidatePriorityClass` (metadata is checked generically). */
export function validatePriorityClass(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const name = obj.metadata?.name ?? '';
  const value = getNum(obj, 'value') ?? 0;
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = unknownSystemClassError(name, value, getBool(obj, 'globalDefault') === true);
    if (why !== '') {
      errs.push(
        fieldErrors.forbidden(
          path('metadata', 'name'),
          `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`,
        ),
      );
    }
  } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(
      fieldErrors.forbidden(
        path('value'),
        `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`,
      ),
    );
  }
  errs.push(...validatePreemptionPolicy(get(obj, 'preemptionPolicy')));
  return errs;
}

/** Upstream `ValidatePriorityClassUpdate`: `value` and `preemptionPolicy` are immutable. */
export function validatePriorityClassUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if ((getNum(obj, 'value') ?? 0) !== (getNum(old, 'value') ?? 0))
    errs.push(fieldErrors.forbidden(path('value'), 'may not be changed in an update.'));
  errs.push(...immutable(obj.preemptionPolicy, old.preemptionPolicy, path('preemptionPolicy')));
  return errs;
}

/** scheduling.k8s.io/v1 `priorityclasses` (`pc`, cluster-scoped). */
export const priorityClassResource: ResourceDefinition = {
  group: 'scheduling.k8s.io',
  version: 'v1',
  kind: 'PriorityClass',
  listKind: 'PriorityClassList',
  plural: 'priorityclasses',
  singular: 'priorityclass',
  namespaced: false,
  shortNames: ['pc'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      // Upstream `SetDefaults_PriorityClass`.
      setDefault(obj, 'preemptionPolicy', PREEMPT_LOWER_PRIORITY);
    },
    validate: validatePriorityClass,
    validateUpdate: validatePriorityClassUpdate,
  }),
};
