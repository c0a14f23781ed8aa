/**
 * Client-side apply ↔ server-side apply hand-over for `kubectl` (upstream `lastappliedmanager.go`
 * and `lastappliedupdater.go`). When `kubectl apply --server-side` (manager `kubectl`) conflicts
 * only on fields whose live values still equal the `kubectl.kubernetes.io/last-applied-configuration`
 * annotation, those conflicts are the same user's client-side apply and the apply is forced.
 * After such an apply, the annotation is rewritten to the newly applied configuration so a later
 * client-side apply stays consistent.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { compareObjects } from './compare.js';
import type { FieldSet } from './field-set.js';
import { rawFieldSetOf } from './field-set-of.js';
import { goJson } from './go-json.js';
import { isJsonMap, type TypeResolver } from './type-resolver.js';

export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** The only manager whose applies take part in the hand-over. */
export const KUBECTL_MANAGER = 'kubectl';

function lastAppliedOf(obj: KubeObject): string | undefined {
  const v = obj.metadata?.annotations?.[LAST_APPLIED_ANNOTATION];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export function hasLastApplied(obj: KubeObject): boolean {
  return lastAppliedOf(obj) !== undefined;
}

/**
 * Fields the annotation sets with the same value as the live object: conflicts on them may be
 * overridden. `undefined` when there is no usable annotation (upstream then keeps the conflicts).
 */
export function allowedConflictsFromLastApplied(
  r: TypeResolver,
  live: KubeObject,
  apiVersion: string,
): FieldSet | undefined {
  const text = lastAppliedOf(live);
  if (text === undefined) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonMap(lastApplied) || lastApplied.apiVersion !== apiVersion) return undefined;
  try {
    const set = rawFieldSetOf(r, lastApplied);
    const c = compareObjects(r, lastApplied, live);
    return set.difference(c.modified).difference(c.added).difference(c.removed);
  } catch {
    return undefined;
  }
}

/**
 * The annotation value for an applied configuration: its JSON without the annotation itself,
 * encoded as Go's `json.Encoder` does (sorted keys, HTML-safe, trailing newline).
 */
export function buildLastApplied(applied: KubeObject): string {
  const copy = structuredClone(applied);
  const annotations = copy.metadata?.annotations;
  if (annotations) delete annotations[LAST_APPLIED_ANNOTATION];
  return `${goJson(copy)}\n`;
}

/** A copy of `obj` with the annotation set. */
export function withLastApplied(obj: KubeObject, value: string): KubeObject {
  const metadata = { ...obj.metadata };
  metadata.annotations = { ...metadata.annotations, [LAST_APPLIED_ANNOTATION]: value };
  return { ...obj, metadata };
}
