/**
 * Built documents, kept as bytes with their hashes and rebuilt lazily: a registry change only
 * marks the cache stale; the next request regroups the served resources and rebuilds just the
 * group-versions whose set of definitions changed (definitions are immutable objects, so
 * identity tells). A rebuilt document that came out byte-identical keeps its hash, so clients'
 * cached copies (kubectl caches by the hashed URL) stay valid.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';
import type { ResourceRegistry } from '../registry.js';
import { buildV2Document, v2DocumentJson } from './document-v2.js';
import { encodeV2Protobuf } from './document-v2-protobuf.js';
import {
  buildGroupVersionDocument,
  buildRootDocument,
  contentHash,
  groupByVersion,
} from './document-v3.js';
import type { BuiltinSchemaSet } from './types.js';

/** One served document: its bytes, hash (= ETag without quotes) and time of last change. */
export interface BuiltDocument {
  readonly json: Buffer;
  readonly hash: string;
  readonly modified: Date;
}

interface GroupVersionEntry extends BuiltDocument {
  readonly defs: readonly ResourceDefinition[];
  readonly missingRefs: readonly string[];
}

/** The v2 document in both encodings; the ETag is the hash of the JSON form, as upstream. */
export interface BuiltV2Document extends BuiltDocument {
  readonly protobuf: Buffer;
}

export class OpenApiDocumentCache {
  readonly #registry: ResourceRegistry;
  readonly #schemas: BuiltinSchemaSet;
  readonly #now: () => Date;
  #stale = true;
  #groupVersions = new Map<string, GroupVersionEntry>();
  #root: BuiltDocument | undefined;
  #v2: BuiltV2Document | undefined;

  constructor(registry: ResourceRegistry, schemas: BuiltinSchemaSet, now: () => Date) {
    this.#registry = registry;
    this.#schemas = schemas;
    this.#now = now;
  }

  /** Marks every document as possibly out of date (call on every registry change). */
  invalidate(): void {
    this.#stale = true;
  }

  /** The document of `key` (`api/v1`, `apis/apps/v1`), or undefined when not served. */
  groupVersion(key: string): BuiltDocument | undefined {
    this.#refresh();
    return this.#groupVersions.get(key);
  }

  /** Every served group-version key, sorted. */
  keys(): string[] {
    this.#refresh();
    return [...this.#groupVersions.keys()].sort();
  }

  /** Component references that no schema satisfies, per group-version (diagnostics, tests). */
  missingRefs(): Map<string, readonly string[]> {
    this.#refresh();
    const out = new Map<string, readonly string[]>();
    for (const [k, e] of this.#groupVersions)
      if (e.missingRefs.length > 0) out.set(k, e.missingRefs);
    return out;
  }

  root(): BuiltDocument {
    this.#refresh();
    if (this.#root === undefined) {
      const hashes = new Map([...this.#groupVersions].map(([k, e]) => [k, e.hash]));
      const json = Buffer.from(JSON.stringify(buildRootDocument(hashes)));
      this.#root = { json, hash: contentHash(json), modified: this.#now() };
    }
    return this.#root;
  }

  v2(): BuiltV2Document {
    this.#refresh();
    if (this.#v2 === undefined) {
      const model = buildV2Document(this.#registry.all());
      const json = Buffer.from(JSON.stringify(v2DocumentJson(model)));
      const protobuf = encodeV2Protobuf(model);
      this.#v2 = { json, protobuf, hash: contentHash(json), modified: this.#now() };
    }
    return this.#v2;
  }

  #refresh(): void {
    if (!this.#stale) return;
    this.#stale = false;
    const groups = groupByVersion(this.#registry.all());
    let changed = groups.size !== this.#groupVersions.size;
    const next = new Map<string, GroupVersionEntry>();
    for (const [key, defs] of groups) {
      const old = this.#groupVersions.get(key);
      const entry =
        old !== undefined && sameDefinitions(old.defs, defs) ? old : this.#build(defs, old);
      if (entry.hash !== old?.hash) changed = true;
      next.set(key, entry);
    }
    this.#groupVersions = next;
    if (changed) {
      this.#root = undefined;
      this.#v2 = undefined;
    }
  }

  #build(
    defs: readonly ResourceDefinition[],
    old: GroupVersionEntry | undefined,
  ): GroupVersionEntry {
    const built = buildGroupVersionDocument(defs, this.#schemas);
    const json = Buffer.from(JSON.stringify(built.document));
    const hash = contentHash(json);
    // Same bytes: keep the old buffer and time, so Last-Modified and caches stay put.
    if (old !== undefined && old.hash === hash) return { ...old, defs };
    return { defs, json, hash, modified: this.#now(), missingRefs: built.missingRefs };
  }
}

function sameDefinitions(
  a: readonly ResourceDefinition[],
  b: readonly ResourceDefinition[],
): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}
