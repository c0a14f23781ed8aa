/**
 * The Priority admission plugin (`plugin/pkg/admission/priority`, on by default):
 *
 * - **Pods, create**: `spec.priorityClassName` resolves to `spec.priority` and
 *   `spec.preemptionPolicy` from its PriorityClass; no name takes the `globalDefault` class
 *   (its name is written into the pod), and with no default class priority 0 and
 *   `PreemptLowerPriority`. An unknown class name is 403 `no PriorityClass with name x was
 *   found`; a client-set priority or policy that disagrees with the class is 403 as well.
 * - **Pods, update**: an update that drops priority or policy keeps the stored ones.
 * - **PriorityClasses, create and update**: only one `globalDefault` class may exist.
 * - **PriorityClasses, delete**: the two system classes cannot be deleted (upstream's
 *   priorityclass REST `Delete`, which is not admission but has the same effect here).
 *
 * The rules are pure functions over the classes that exist, so they are table-tested without
 * a server; the hooks read the classes synchronously from the backend, as
 * `default-storage-class.ts` reads StorageClasses.
 *
 * Ordering note: the object store runs the Pod strategy's `prepareForCreate` before admission,
 * and that strategy still fills priority 0 (no class) or a system class's value. With a
 * `globalDefault` class a pod without a class then arrives with priority 0 and
 * `PreemptLowerPriority` already set; that pair is taken as "not set by the client" (a client
 * that sends exactly priority 0 is the one case upstream would reject and this accepts).
 *
 * @module
 */
import { forbidden } from '../../api/errors.js';
import { getBool, getNum, getObj, getStr, isJsonObject } from '../../api/kinds/json.js';
import {
  PREEMPT_LOWER_PRIORITY,
  SYSTEM_PRIORITY_CLASSES,
  systemPriorityClass,
  systemPriorityClassObject,
} from '../../api/kinds/scheduling-priorityclass.js';
import type { KubeObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend } from '../../storage/backend.js';
import { resourcePrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { Admission } from '../store/object-store.js';

const PRIORITY_CLASSES = {
  group: 'scheduling.k8s.io',
  plural: 'priorityclasses',
  namespaced: false,
} as const;
const PODS_GR = { group: '', resource: 'pods' };
const CLASSES_GR = { group: 'scheduling.k8s.io', resource: 'priorityclasses' };

/** Upstream `DefaultPriorityWhenNoDefaultClassExists`. */
export const DEFAULT_PRIORITY_WITHOUT_DEFAULT_CLASS = 0;

/** What a pod's priority resolves to. */
export interface ResolvedPriority {
  readonly className: string;
  readonly priority: number;
  readonly preemptionPolicy: string | undefined;
}

/** The fields of a PriorityClass the rules read. */
export interface PriorityClassView {
  readonly name: string;
  readonly value: number;
  readonly globalDefault: boolean;
  readonly preemptionPolicy: string | undefined;
}

export function priorityClassView(pc: KubeObject): PriorityClassView {
  return {
    name: pc.metadata?.name ?? '',
    value: getNum(pc, 'value') ?? 0,
    globalDefault: getBool(pc, 'globalDefault') === true,
    preemptionPolicy: getStr(pc, 'preemptionPolicy'),
  };
}

/**
 * Upstream `getDefaultPriorityClass`: among several `globalDefault` classes (a race between
 * two creates can leave two) the one with the lowest value wins.
 */
export function defaultPriorityClass(
  classes: readonly PriorityClassView[],
): PriorityClassView | undefined {
  let best: PriorityClassView | undefined;
  for (const c of classes) {
    if (c.globalDefault && (best === undefined || best.value > c.value)) best = c;
  }
  return best;
}

/** The outcome of resolving a new pod's priority: the fields to set, or why it is refused. */
export type PodPriorityDecision =
  | { readonly ok: ResolvedPriority }
  | { readonly forbidden: string };

/**
 * Upstream `admitPod` for a create. `podPriority`/`podPolicy` are what the pod carries (for a
 * pod without a class, possibly filled by the Pod strategy: see the module comment).
 */
export function resolvePodPriority(
  className: string,
  podPriority: number | undefined,
  podPolicy: string | undefined,
  classes: readonly PriorityClassView[],
): PodPriorityDecision {
  let resolved: ResolvedPriority;
  let priority = podPriority;
  let policy = podPolicy;
  if (className === '') {
    const dpc = defaultPriorityClass(classes);
    resolved =
      dpc === undefined
        ? {
            className: '',
            priority: DEFAULT_PRIORITY_WITHOUT_DEFAULT_CLASS,
            preemptionPolicy: PREEMPT_LOWER_PRIORITY,
          }
        : { className: dpc.name, priority: dpc.value, preemptionPolicy: dpc.preemptionPolicy };
    if (priority === DEFAULT_PRIORITY_WITHOUT_DEFAULT_CLASS && policy === PREEMPT_LOWER_PRIORITY) {
      // What the Pod strategy fills for a pod without a class: not the client's choice.
      priority = undefined;
      policy = undefined;
    }
  } else {
    const pc = classes.find((c) => c.name === className);
    if (pc === undefined) return { forbidden: `no PriorityClass with name ${className} was found` };
    resolved = { className, priority: pc.value, preemptionPolicy: pc.preemptionPolicy };
  }
  if (priority !== undefined && priority !== resolved.priority) {
    return {
      forbidden: `the integer value of priority (${priority}) must not be provided in pod spec; priority admission controller computed ${resolved.priority} from the given PriorityClass name`,
    };
  }
  const computed = resolved.preemptionPolicy;
  if (computed !== undefined && policy !== undefined && policy !== computed) {
    return {
      forbidden: `the string value of PreemptionPolicy (${policy}) must not be provided in pod spec; priority admission controller computed ${computed} from the given PriorityClass name`,
    };
  }
  return { ok: resolved };
}

/**
 * Upstream `validatePriorityClass`: a class marked `globalDefault` is refused while another
 * default exists (on update, unless the existing default is this class).
 */
export function globalDefaultConflict(
  pc: PriorityClassView,
  classes: readonly PriorityClassView[],
  operation: 'create' | 'update',
): string | undefined {
  if (!pc.globalDefault) return undefined;
  const dpc = defaultPriorityClass(classes);
  if (dpc === undefined) return undefined;
  if (operation === 'create' || dpc.name !== pc.name)
    return `PriorityClass ${dpc.name} is already marked as default. Only one default can exist`;
  return undefined;
}

function isPods(def: ResourceDefinition): boolean {
  return def.group === '' && def.plural === 'pods';
}

function isPriorityClasses(def: ResourceDefinition): boolean {
  return def.group === PRIORITY_CLASSES.group && def.plural === PRIORITY_CLASSES.plural;
}

/**
 * Every PriorityClass, read from the backend, plus the system classes that have no object
 * (yet): upstream creates them at start and forbids their deletion, so a pod may always name
 * them; a server started without the bootstrap (tests, or before its first pass) agrees.
 */
export function listPriorityClasses(backend: Backend): PriorityClassView[] {
  const stored = backend
    .list(resourcePrefix(PRIORITY_CLASSES))
    .items.map((kv) => priorityClassView(parseStoredObject(kv.value)));
  const missing = SYSTEM_PRIORITY_CLASSES.filter((c) => !stored.some((s) => s.name === c.name));
  return [...stored, ...missing.map((c) => priorityClassView(systemPriorityClassObject(c)))];
}

function admitPodCreate(backend: Backend, obj: KubeObject): void {
  const spec = getObj(obj, 'spec');
  if (spec === undefined) return;
  const decision = resolvePodPriority(
    getStr(spec, 'priorityClassName') ?? '',
    getNum(spec, 'priority'),
    getStr(spec, 'preemptionPolicy'),
    listPriorityClasses(backend),
  );
  if ('forbidden' in decision)
    throw forbidden(PODS_GR, obj.metadata?.name ?? '', decision.forbidden);
  const { className, priority, preemptionPolicy } = decision.ok;
  if (className !== '') spec.priorityClassName = className;
  spec.priority = priority;
  if (preemptionPolicy !== undefined) spec.preemptionPolicy = preemptionPolicy;
}

function checkGlobalDefault(backend: Backend, obj: KubeObject, op: 'create' | 'update'): void {
  const why = globalDefaultConflict(priorityClassView(obj), listPriorityClasses(backend), op);
  if (why !== undefined) throw forbidden(CLASSES_GR, obj.metadata?.name ?? '', why);
}

/** The Priority admission plugin over the backend's PriorityClasses. */
export function priorityAdmission(backend: Backend): Admission {
  return {
    admitCreate(def, _namespace, obj) {
      if (isPods(def)) admitPodCreate(backend, obj);
      else if (isPriorityClasses(def)) checkGlobalDefault(backend, obj, 'create');
    },
    preserve(def, next, current) {
      if (isPriorityClasses(def)) {
        checkGlobalDefault(backend, next, 'update');
        return;
      }
      if (!isPods(def)) return;
      // Upstream keeps the priority this plugin set on create when an update omits it.
      const spec = getObj(next, 'spec');
      const old = getObj(current, 'spec');
      if (!isJsonObject(spec) || old === undefined) return;
      for (const key of ['priority', 'preemptionPolicy']) {
        if ((spec[key] === undefined || spec[key] === null) && old[key] !== undefined)
          spec[key] = old[key];
      }
    },
    admitDelete(def, _namespace, name) {
      if (isPriorityClasses(def) && systemPriorityClass(name) !== undefined)
        throw forbidden(CLASSES_GR, name, 'this is a system priority class and cannot be deleted');
    },
  };
}
