/**
 * Rows of the apps/v1 kinds, as upstream `printDeployment`, `printReplicaSet`,
 * `printStatefulSet` and `printControllerRevision`. Replica counts are integers; the
 * Deployment and StatefulSet `READY` column is the string `ready/desired`.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, int, meta, nameOf, obj, objs, str } from './access.js';
import { containerCells, formatLabelSelector, selectorString } from './format.js';
import type { PrintedRow } from './types.js';

function templateSpec(o: KubeObject): unknown {
  return obj(obj(obj(o.spec).template).spec);
}

export function printDeployment(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const [names, images] = containerCells(templateSpec(o));
  return {
    cells: [
      nameOf(o),
      `${int(status.readyReplicas)}/${int(spec.replicas)}`,
      int(status.updatedReplicas),
      int(status.availableReplicas),
      ageOf(o, now),
      names,
      images,
      selectorString(spec.selector),
    ],
  };
}

export function printReplicaSet(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const [names, images] = containerCells(templateSpec(o));
  return {
    cells: [
      nameOf(o),
      int(spec.replicas),
      int(status.replicas),
      int(status.readyReplicas),
      ageOf(o, now),
      names,
      images,
      formatLabelSelector(spec.selector),
    ],
  };
}

export function printStatefulSet(o: KubeObject, now: Date): PrintedRow {
  const [names, images] = containerCells(templateSpec(o));
  return {
    cells: [
      nameOf(o),
      `${int(obj(o.status).readyReplicas)}/${int(obj(o.spec).replicas)}`,
      ageOf(o, now),
      names,
      images,
    ],
  };
}

/** `metav1.GetControllerOf` as `statefulset.apps/db` (upstream `formatResourceName`). */
function controllerName(o: KubeObject): string {
  const ref = objs(meta(o).ownerReferences).find((r) => r.controller === true);
  if (ref === undefined) return '<none>';
  const apiVersion = str(ref.apiVersion);
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const kind = str(ref.kind);
  const name = str(ref.name);
  if (group === '' && kind === '') return name;
  const groupKind = group === '' ? kind : `${kind}.${group}`;
  return `${groupKind.toLowerCase()}/${name}`;
}

export function printControllerRevision(o: KubeObject, now: Date): PrintedRow {
  // An int64: beyond 2^53 it is a bigint (src/api/int64-json.ts), printed exactly.
  const revision = typeof o.revision === 'bigint' ? o.revision : int(o.revision);
  return { cells: [nameOf(o), controllerName(o), revision, ageOf(o, now)] };
}
