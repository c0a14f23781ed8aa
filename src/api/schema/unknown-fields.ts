/**
 * Unknown fields: the keys of a request body that the kind's schema does not declare, in
 * upstream's path format (`spec.template.spec.containers[0].imagee`, `metadata.labelz`):
 * names joined by `.`, list indices as `[i]`, map keys as names.
 *
 * Upstream finds them two ways, with the same paths: built-in kinds by strict JSON decoding into
 * Go structs (`sigs.k8s.io/json`; an unknown key's value is skipped, a map accepts every key,
 * opaque types such as RawExtension accept anything), custom resources by structural-schema
 * pruning (a key not in `properties` is unknown unless `additionalProperties` or
 * `x-kubernetes-preserve-unknown-fields` allow it). At an object's root, and at every
 * `x-kubernetes-embedded-resource`, `apiVersion` and `kind` are always known and `metadata` is
 * checked as ObjectMeta. What counts as declared is defined once, in `declared-fields.ts`,
 * shared with the pruner.
 *
 * Order: keys are visited in the value's own order (document order for a parsed body), or
 * sorted when the value came from Go-marshalled JSON (`sortKeys`). Errors are deduplicated and
 * capped at 100, as `sigs.k8s.io/json` does.
 *
 * @module
 */
import {
  ANY_SCHEMA,
  type DeclaredShape,
  declaredProperty,
  declaredShape,
  isEmbeddedResource,
  isOpen,
  isResourceKey,
  mapValues,
  objectMetaSchema,
} from './declared-fields.js';
import type { MemberList, ParsedJson } from './duplicate-fields.js';
import type { SchemaNavigator } from './navigator.js';
import type { Schema } from './types.js';

/** Upstream `sigs.k8s.io/json` stops collecting strict errors after this many. */
const MAX_ERRORS = 100;

export interface UnknownFieldOptions {
  /** Visit keys in sorted order (the value was re-marshalled by Go, e.g. a patched object). */
  readonly sortKeys?: boolean;
}

/** Paths of fields the schema does not declare, in upstream order. */
export function findUnknownFields(
  value: unknown,
  schema: Schema | undefined,
  nav: SchemaNavigator,
  options: UnknownFieldOptions = {},
): string[] {
  const walk = new StrictWalk(nav, undefined, options.sortKeys ?? false);
  walk.object(value, schema, '', true);
  return walk.errors.map((e) => e.path);
}

/**
 * Upstream's strict decoding errors for a parsed JSON body, unknown and duplicate fields
 * interleaved in document order: `unknown field "spec.foo"`, `duplicate field "spec.paused"`.
 * A key both unknown and repeated is reported once, as unknown.
 */
export function findStrictJsonErrors(
  parsed: ParsedJson,
  schema: Schema | undefined,
  nav: SchemaNavigator,
): string[] {
  const walk = new StrictWalk(nav, parsed.members, false);
  walk.object(parsed.value, schema, '', true);
  return walk.errors.map((e) => `${e.kind} field ${JSON.stringify(e.path)}`);
}

interface StrictError {
  readonly kind: 'unknown' | 'duplicate';
  readonly path: string;
}

class StrictWalk {
  readonly errors: StrictError[] = [];
  readonly #seen = new Set<string>();
  readonly #nav: SchemaNavigator;
  readonly #members: WeakMap<object, MemberList> | undefined;
  readonly #sortKeys: boolean;

  constructor(
    nav: SchemaNavigator,
    members: WeakMap<object, MemberList> | undefined,
    sort: boolean,
  ) {
    this.#nav = nav;
    this.#members = members;
    this.#sortKeys = sort;
  }

  /** Walks any value; `resource` marks an object root or embedded resource. */
  object(value: unknown, schema: Schema | undefined, path: string, resource = false): void {
    if (Array.isArray(value)) {
      // No items schema (free-form or scalar): the elements decode as anything.
      const items = this.#nav.items(schema);
      for (const [i, item] of value.entries()) this.object(item, items, `${path}[${i}]`);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const resolved = this.#nav.resolve(schema);
    const shape = declaredShape(resolved);
    const isResource = resource || isEmbeddedResource(resolved);
    const seen = new Set<string>();
    for (const [key, child] of this.#entries(value)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      const sub = this.#field(resolved, shape, key, isResource);
      if (sub === undefined) {
        this.#report('unknown', childPath);
        continue;
      }
      if (seen.has(key)) this.#report('duplicate', childPath);
      seen.add(key);
      this.object(child, sub, childPath, false);
    }
  }

  /** The schema a member is decoded with, or `undefined` when the member is unknown. */
  #field(
    s: Schema | undefined,
    shape: DeclaredShape,
    key: string,
    resource: boolean,
  ): Schema | undefined {
    if (resource && isResourceKey(key)) {
      return key === 'metadata' ? objectMetaSchema(this.#nav) : ANY_SCHEMA;
    }
    switch (shape) {
      case 'any':
        return ANY_SCHEMA;
      case 'map':
        return mapValues(s);
      case 'struct':
        if (s === undefined) return undefined;
        return declaredProperty(s, key) ?? (isOpen(s) ? ANY_SCHEMA : undefined);
    }
  }

  #entries(value: object): MemberList {
    const list = this.#members?.get(value) ?? Object.entries(value);
    if (!this.#sortKeys) return list;
    return [...list].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  #report(kind: StrictError['kind'], path: string): void {
    const id = `${kind} ${path}`;
    if (this.errors.length >= MAX_ERRORS || this.#seen.has(id)) return;
    this.#seen.add(id);
    this.errors.push({ kind, path });
  }
}
