/**
 * Pruning unknown fields: removes, in place, every key of an object that its schema does not
 * declare, so that what is stored is what upstream would store. Upstream decodes a built-in
 * object into Go structs, where a key the type lacks never reaches storage (with
 * `fieldValidation=Ignore` or `Warn` it is dropped silently or with a warning); a custom
 * resource is pruned by its structural schema. We store JSON, so we prune explicitly.
 *
 * "Declared" means exactly what `findUnknownFields` (`unknown-fields.ts`) means, so that after
 * pruning it finds nothing: both take the rules from `declared-fields.ts` (a struct's own
 * `properties`, maps declare every key, scalars and opaque values declare everything below
 * them, `apiVersion`, `kind` and `metadata` at every resource).
 *
 * A declared field whose value is `null` is kept (Go decodes it to the zero value; the store's
 * defaulting handles it); an undeclared one is removed whatever its value.
 *
 * Cost: this runs on every write (~7,000 creates/s), so schemas are compiled once per
 * navigator into `Plan`s (a resolved schema's shape and its fields' plans, built lazily so the
 * recursive JSONSchemaProps schema is fine), subtrees in which nothing can be unknown (string
 * maps, free-form values, scalars) are not entered, and no path string is built unless a field
 * is removed and the caller asked for paths. See `bench/prune-unknown.ts`.
 *
 * @module
 */
import { isJsonObject } from '../object.js';
import {
  ANY_SCHEMA,
  type DeclaredShape,
  declaredShape,
  isEmbeddedResource,
  isOpen,
  isResourceKey,
  mapValues,
  objectMetaSchema,
} from './declared-fields.js';
import type { SchemaNavigator } from './navigator.js';
import type { Schema } from './types.js';

/**
 * Removes every field `schema` does not declare from `value` (in place) and says whether
 * anything was removed. `value` is treated as an object root: `apiVersion`, `kind` and
 * `metadata` are always declared. When `removed` is given, the removed fields' paths are
 * appended to it in upstream's format (`spec.template.spec.containers[0].imagee`), in the
 * order visited; unlike the finder there is no cap of 100.
 */
export function pruneUnknownFields(
  value: unknown,
  schema: Schema | undefined,
  nav: SchemaNavigator,
  removed?: string[],
): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const plans = plansFor(nav);
  const walk = new PruneWalk(plans, removed);
  const plan = plans.of(nav.resolve(schema));
  if (Array.isArray(value)) walk.array(value, plan);
  else if (isJsonObject(value)) walk.object(value, plan, true);
  return walk.pruned;
}

type Obj = Record<string, unknown>;

/** Inertness, computed lazily: `UNKNOWN` before, `PENDING` while (a cycle is taken as live). */
const UNKNOWN = 0;
const PENDING = 1;
const LIVE = 2;
const INERT = 3;

/** How values of one resolved schema are walked; built once per (navigator, schema). */
class Plan {
  readonly kind: DeclaredShape;
  /** `x-kubernetes-embedded-resource`: `apiVersion`, `kind`, `metadata` are declared. */
  readonly resource: boolean;
  readonly #schema: Schema | undefined;
  readonly #plans: PlanCache;
  #fields: Record<string, Plan | undefined> | undefined;
  #rest: Plan | undefined | null = null;
  #items: Plan | undefined;
  #inert: number = UNKNOWN;

  constructor(schema: Schema | undefined, plans: PlanCache) {
    this.#schema = schema;
    this.#plans = plans;
    this.kind = declaredShape(schema);
    this.resource = isEmbeddedResource(schema);
  }

  /**
   * A struct's declared properties, `undefined` for maps and free-form values. A null-prototype
   * record: about 15% faster than a Map in the benchmark, and `constructor` is not declared.
   */
  fields(): Record<string, Plan | undefined> | undefined {
    if (this.kind !== 'struct') return undefined;
    if (this.#fields === undefined) {
      const fields: Record<string, Plan | undefined> = Object.create(null);
      const props = this.#schema?.properties ?? {};
      for (const name of Object.keys(props)) fields[name] = this.#plans.ofRaw(props[name]);
      this.#fields = fields;
    }
    return this.#fields;
  }

  /**
   * The plan of a key not in `fields()`: a map's values, anything under a free-form value or
   * `x-kubernetes-preserve-unknown-fields`, `undefined` (undeclared) in a closed struct.
   */
  rest(): Plan | undefined {
    if (this.#rest === null) this.#rest = this.#computeRest();
    return this.#rest;
  }

  #computeRest(): Plan | undefined {
    if (this.kind === 'map') return this.#plans.ofRaw(mapValues(this.#schema));
    if (this.kind === 'any' || isOpen(this.#schema)) return this.#plans.any;
    return undefined;
  }

  /** The plan of a list's elements (anything when the schema has no `items`). */
  items(): Plan {
    this.#items ??= this.#plans.ofRaw(this.#schema?.items);
    return this.#items;
  }

  /** Nothing below a value of this schema can be undeclared, so the walk need not enter it. */
  isInert(): boolean {
    if (this.#inert === UNKNOWN) {
      this.#inert = PENDING;
      this.#inert = this.#computeInert() ? INERT : LIVE;
    }
    return this.#inert === INERT;
  }

  #computeInert(): boolean {
    if (this.resource || this.kind === 'struct') return false;
    if (this.kind === 'map' && !this.rest()?.isInert()) return false;
    return this.#schema?.items === undefined || this.items().isInert();
  }
}

/** Plans by resolved schema, for one navigator. */
class PlanCache {
  readonly any: Plan;
  readonly #nav: SchemaNavigator;
  readonly #byResolved = new WeakMap<Schema, Plan>();
  #meta: Plan | undefined;

  constructor(nav: SchemaNavigator) {
    this.#nav = nav;
    this.any = new Plan(undefined, this);
  }

  /** The plan of an already resolved schema. */
  of(resolved: Schema | undefined): Plan {
    if (resolved === undefined || resolved === ANY_SCHEMA) return this.any;
    let plan = this.#byResolved.get(resolved);
    if (plan === undefined) {
      plan = new Plan(resolved, this);
      this.#byResolved.set(resolved, plan);
    }
    return plan;
  }

  /** The plan of a schema that may be a `$ref` or an `allOf` wrapper. */
  ofRaw(schema: Schema | undefined): Plan {
    return this.of(this.#nav.resolve(schema));
  }

  objectMeta(): Plan {
    this.#meta ??= this.ofRaw(objectMetaSchema(this.#nav));
    return this.#meta;
  }
}

const cacheByNavigator = new WeakMap<SchemaNavigator, PlanCache>();

function plansFor(nav: SchemaNavigator): PlanCache {
  let plans = cacheByNavigator.get(nav);
  if (plans === undefined) {
    plans = new PlanCache(nav);
    cacheByNavigator.set(nav, plans);
  }
  return plans;
}

/** One pruning pass. The path is kept as a stack of segments and joined only on removal. */
class PruneWalk {
  pruned = false;
  readonly #plans: PlanCache;
  readonly #removed: string[] | undefined;
  readonly #path: (string | number)[] = [];

  constructor(plans: PlanCache, removed: string[] | undefined) {
    this.#plans = plans;
    this.#removed = removed;
  }

  /** `root` marks an object root (always a resource, as the finder treats it). */
  object(obj: Obj, plan: Plan, root: boolean): void {
    const resource = root || plan.resource;
    const fields = plan.fields();
    const rest = plan.rest();
    // `for…in` allocates nothing for JSON objects (no own-keys array); deleting the key being
    // visited is allowed and does not disturb the iteration.
    for (const key in obj) {
      let child = fields === undefined ? rest : (fields[key] ?? rest);
      if (resource && isResourceKey(key)) {
        child = key === 'metadata' ? this.#plans.objectMeta() : this.#plans.any;
      }
      if (child === undefined) {
        delete obj[key];
        this.#remove(key);
        continue;
      }
      const v = obj[key];
      if (typeof v !== 'object' || v === null || child.isInert()) continue;
      this.#path.push(key);
      if (Array.isArray(v)) this.array(v, child);
      else if (isJsonObject(v)) this.object(v, child, false);
      this.#path.pop();
    }
  }

  array(list: readonly unknown[], plan: Plan): void {
    const items = plan.items();
    if (items.isInert()) return;
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (typeof v !== 'object' || v === null) continue;
      this.#path.push(i);
      if (Array.isArray(v)) this.array(v, items);
      else if (isJsonObject(v)) this.object(v, items, false);
      this.#path.pop();
    }
  }

  #remove(key: string): void {
    this.pruned = true;
    if (this.#removed === undefined) return;
    let path = '';
    for (const seg of this.#path) {
      path = typeof seg === 'number' ? `${path}[${seg}]` : path === '' ? seg : `${path}.${seg}`;
    }
    this.#removed.push(path === '' ? key : `${path}.${key}`);
  }
}
