/**
 * The resources this server serves, by group, version and plural name. Built-in kinds are
 * added at start; CustomResourceDefinitions add and remove entries at run time, so readers
 * (discovery, routing) always ask the registry rather than caching a list.
 *
 * @module
 */
import type { ResourceDefinition } from '../api/resource.js';

export interface GroupVersions {
  readonly group: string;
  /** Versions in preference order. */
  readonly versions: readonly string[];
}

export type RegistryListener = () => void;

export class ResourceRegistry {
  readonly #byPath = new Map<string, ResourceDefinition>();
  readonly #listeners = new Set<RegistryListener>();

  constructor(definitions: readonly ResourceDefinition[] = []) {
    for (const d of definitions) this.#byPath.set(pathKey(d.group, d.version, d.plural), d);
  }

  add(def: ResourceDefinition): void {
    this.#byPath.set(pathKey(def.group, def.version, def.plural), def);
    this.#notify();
  }

  remove(group: string, version: string, plural: string): void {
    if (this.#byPath.delete(pathKey(group, version, plural))) this.#notify();
  }

  get(group: string, version: string, plural: string): ResourceDefinition | undefined {
    return this.#byPath.get(pathKey(group, version, plural));
  }

  /** The definition serving `kind` in `group`/`version`. */
  byKind(group: string, version: string, kind: string): ResourceDefinition | undefined {
    for (const d of this.#byPath.values()) {
      if (d.group === group && d.version === version && d.kind === kind) return d;
    }
    return undefined;
  }

  all(): ResourceDefinition[] {
    return [...this.#byPath.values()];
  }

  /** Every resource served in one group-version, in registration order. */
  inGroupVersion(group: string, version: string): ResourceDefinition[] {
    return this.all().filter((d) => d.group === group && d.version === version);
  }

  /** Whether `group`/`version` is served at all. */
  hasGroupVersion(group: string, version: string): boolean {
    return this.all().some((d) => d.group === group && d.version === version);
  }

  /** Named groups (not core) with their versions, in registration order. */
  groups(): GroupVersions[] {
    const out = new Map<string, string[]>();
    for (const d of this.#byPath.values()) {
      if (d.group === '') continue;
      const vs = out.get(d.group) ?? [];
      if (!vs.includes(d.version)) vs.push(d.version);
      out.set(d.group, vs);
    }
    return [...out].map(([group, versions]) => ({ group, versions }));
  }

  /** Called after every add or remove (discovery and OpenAPI caches listen). */
  onChange(listener: RegistryListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #notify(): void {
    for (const l of this.#listeners) l();
  }
}

function pathKey(group: string, version: string, plural: string): string {
  return `${group}/${version}/${plural}`;
}
