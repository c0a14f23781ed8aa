/**
 * The `components.schemas` of one document: the schemas its operations refer to and,
 * transitively, everything those refer to (ObjectMeta pulls in OwnerReference,
 * ManagedFieldsEntry, Time, FieldsV1…). Only names that exist are ever referenced, so a
 * document has no dangling `$ref` as long as the built-in set itself has none.
 *
 * @module
 */
import { REF_PREFIX, type Schema, type SchemaComponents } from '../../api/schema/types.js';

/** The component names a schema refers to directly (through any nesting of sub-schemas). */
export function directRefs(schema: Schema): string[] {
  const out: string[] = [];
  const visit = (s: Schema | undefined): void => {
    if (s === undefined) return;
    if (s.$ref !== undefined) out.push(refName(s.$ref));
    if (s.properties) for (const p of Object.values(s.properties)) visit(p);
    if (typeof s.additionalProperties === 'object') visit(s.additionalProperties);
    visit(s.items);
    visit(s.not);
    for (const list of [s.allOf, s.oneOf, s.anyOf]) for (const x of list ?? []) visit(x);
  };
  visit(schema);
  return out;
}

function refName(ref: string): string {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
}

export interface SchemaRef {
  readonly $ref: string;
}

export class ComponentCollector {
  readonly #builtin: SchemaComponents;
  readonly #out = new Map<string, Schema>();
  /** Names referred to by some collected schema but found nowhere (a built-in set bug). */
  readonly missing = new Set<string>();

  constructor(builtin: SchemaComponents) {
    this.#builtin = builtin;
  }

  /** A `$ref` to built-in component `name` (collected with its closure); undefined if unknown. */
  ref(name: string | undefined): SchemaRef | undefined {
    if (name === undefined) return undefined;
    if (!this.#out.has(name)) {
      const schema = this.#builtin[name];
      if (schema === undefined) return undefined;
      this.#add(name, schema);
    }
    return { $ref: REF_PREFIX + name };
  }

  /** Adds a component the document defines itself (a custom resource), with its closure. */
  define(name: string, schema: Schema): SchemaRef {
    this.#add(name, schema);
    return { $ref: REF_PREFIX + name };
  }

  /** The collected components, sorted by name (as Go's map encoding writes them). */
  components(): Record<string, Schema> {
    const names = [...this.#out.keys()].sort();
    return Object.fromEntries(names.map((n) => [n, this.#out.get(n)!]));
  }

  #add(name: string, schema: Schema): void {
    this.#out.set(name, schema);
    const queue = directRefs(schema);
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (this.#out.has(next)) continue;
      const s = this.#builtin[next];
      if (s === undefined) {
        this.missing.add(next);
        continue;
      }
      this.#out.set(next, s);
      queue.push(...directRefs(s));
    }
  }
}
