/**
 * The operator's one way to delete a child: fenced by the uid and resourceVersion it read, so a
 * delete never reaches a newer incarnation or a changed object (docs/design/operator.md §7.2). Healing and fleet
 * deletion both go through it.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { isConflict, isNotFound } from '../../client/api-client.js';
import type { FleetDeps } from './deps.js';
import { CHILD_TYPES } from './resources.js';

export interface FencedDelete {
  /** Cached list items may lack `kind`, so the caller names it. */
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  /** 0 for a force-delete; absent means the object's own grace. */
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: 'Foreground';
}

/** The fence of a cached object, or undefined when it lacks a uid or resourceVersion. */
export function fenceOf(kind: string, obj: KubeObject): FencedDelete | undefined {
  const { name, namespace, uid, resourceVersion } = obj.metadata ?? {};
  if (!name || !uid || !resourceVersion) return undefined;
  return { kind, namespace: namespace ?? '', name, uid, resourceVersion };
}

/**
 * True when the object is gone (deleted now or before); false when its preconditions failed
 * (409: it changed since the cache showed it). The informer's event for that change brings
 * the next reconcile, which re-plans.
 */
export async function fencedDelete(deps: FleetDeps, d: FencedDelete): Promise<boolean> {
  const type = CHILD_TYPES[d.kind];
  if (type === undefined) throw new TypeError(`no REST type for ${d.kind}`);
  try {
    await deps.client.delete(
      { ...type, namespace: d.namespace, name: d.name },
      {
        preconditions: { uid: d.uid, resourceVersion: d.resourceVersion },
        ...(d.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: d.gracePeriodSeconds }),
        ...(d.propagationPolicy === undefined ? {} : { propagationPolicy: d.propagationPolicy }),
      },
    );
    return true;
  } catch (err) {
    if (isNotFound(err)) return true;
    if (isConflict(err)) return false;
    throw err;
  }
}
