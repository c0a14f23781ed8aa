/**
 * managedFields for writes through the `scale` subresource (upstream `ScaleHandler`). The
 * parent's entries that own the replicas field are seen as `autoscaling/v1` Scale entries, the
 * write is recorded on the Scale (subresource `scale`), and the result is mapped back: the
 * writer's entry owns the parent's replicas path in the parent's apiVersion, and updaters that
 * owned it lose it. As upstream, a new scale entry carries no `time`, and an object whose
 * entries do not own replicas gets no scale entry. Unlike upstream, entries of other apiVersions
 * are kept (upstream drops versions it has no replicas mapping for; here every version shares
 * the one path).
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../object.js';
import { SchemaNavigator } from '../schema/navigator.js';
import { recordUpdate } from './field-manager.js';
import { fieldSetOfPaths } from './field-set-builder.js';
import {
  decodeManagedFields,
  encodeManagedFields,
  type ManagerEntry,
  type Managers,
  managerIdentity,
} from './managed.js';
import { type FieldPath, fieldElement } from './path-element.js';

const SCALE_API_VERSION = 'autoscaling/v1';
const REPLICAS_IN_SCALE: FieldPath = [fieldElement('spec'), fieldElement('replicas')];

export interface ScaleUpdateOptions {
  readonly manager: string;
  /** The parent's group/version, e.g. `apps/v1`. */
  readonly parentApiVersion: string;
  /** The parent's replicas path; default `.spec.replicas`. */
  readonly replicasPath?: FieldPath;
  readonly now: string;
}

function scaleObject(
  parent: KubeObject,
  replicas: unknown,
  managed: KubeObject['metadata'],
): KubeObject {
  const metadata = {
    ...managed,
    name: parent.metadata?.name,
    namespace: parent.metadata?.namespace,
    uid: parent.metadata?.uid,
  };
  return { apiVersion: SCALE_API_VERSION, kind: 'Scale', metadata, spec: { replicas } };
}

function getPath(obj: unknown, path: FieldPath): unknown {
  let cur = obj;
  for (const pe of path) {
    // A list has no fields: upstream's walk of a field path stops there too.
    if (pe.kind !== 'field' || !isJsonObject(cur)) return undefined;
    cur = cur[pe.name];
  }
  return cur;
}

/** Upstream `ToSubresource`: parent entries owning replicas, as Scale entries. */
function toScale(parent: Managers, replicasPath: FieldPath): Managers {
  const out: Managers = new Map();
  for (const e of parent.values()) {
    if (!e.set.has(replicasPath)) continue;
    const scaled: ManagerEntry = {
      ...e,
      apiVersion: SCALE_API_VERSION,
      set: fieldSetOfPaths([REPLICAS_IN_SCALE]),
    };
    out.set(managerIdentity(scaled), scaled);
  }
  return out;
}

/** Upstream `ToParent`. */
function toParent(
  parent: Managers,
  scale: Managers,
  opts: ScaleUpdateOptions,
  replicasPath: FieldPath,
): Managers {
  const remaining = new Map(scale);
  const out: Managers = new Map();
  const replicas = fieldSetOfPaths([replicasPath]);
  for (const [id, e] of parent) {
    if (!e.set.has(replicasPath)) {
      out.set(id, e);
    } else if (!remaining.has(id)) {
      const set = e.set.difference(replicas);
      if (!set.isEmpty()) out.set(id, { ...e, set });
    } else {
      out.set(id, e);
      remaining.delete(id);
    }
  }
  for (const [id, e] of remaining) {
    if (!e.set.has(REPLICAS_IN_SCALE)) continue;
    out.set(id, {
      ...e,
      apiVersion: opts.parentApiVersion,
      set: replicas,
      time: parent.get(id)?.time,
    });
  }
  return out;
}

/**
 * The parent object after a scale write (`updated` has the new replicas), with managedFields
 * recorded as upstream does for the scale subresource.
 */
export function recordScaleUpdate(
  old: KubeObject,
  updated: KubeObject,
  opts: ScaleUpdateOptions,
): KubeObject {
  const replicasPath = opts.replicasPath ?? REPLICAS_IN_SCALE;
  let parent: Managers;
  try {
    parent = decodeManagedFields(old.metadata?.managedFields);
  } catch {
    return {
      ...updated,
      metadata: { ...updated.metadata, managedFields: old.metadata?.managedFields ?? null },
    };
  }
  const scaleEntries = encodeManagedFields(toScale(parent, replicasPath));
  const oldScale = scaleObject(old, getPath(old, replicasPath), {
    managedFields: scaleEntries ?? null,
  });
  const newScale = scaleObject(updated, getPath(updated, replicasPath), {});
  const recorded = recordUpdate(oldScale, newScale, {
    manager: opts.manager,
    apiVersion: SCALE_API_VERSION,
    subresource: 'scale',
    now: opts.now,
    schema: undefined,
    nav: new SchemaNavigator(),
  });
  const scale = decodeManagedFields(recorded.metadata?.managedFields);
  const entries = encodeManagedFields(toParent(parent, scale, opts, replicasPath));
  const metadata = { ...updated.metadata };
  if (entries) metadata.managedFields = entries;
  else delete metadata.managedFields;
  return { ...updated, metadata };
}
