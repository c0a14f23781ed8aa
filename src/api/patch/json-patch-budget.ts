/**
 * The budgets of one JSON patch (RFC 6902), so a small patch cannot have a large effect:
 *
 * - bytes added by `copy`: at most {@link MAX_COPY_BYTES} (3 MiB), upstream's
 *   `JSONPatchMaxCopyBytes` (kube-apiserver sets evanphx/json-patch's
 *   `AccumulatedCopySizeLimit` to it; each copy counts its value's JSON length). Without it,
 *   one `add` of 1,000 bytes and 40 `copy`s of the growing document onto itself need 2^40 KB;
 * - the document's depth: at most {@link MAX_OBJECT_DEPTH} (500) at any point, since `copy`
 *   and `move` deepen a document without a deep patch and every walker after the patch
 *   recurses (see `src/api/json-depth.ts`).
 *
 * Depths of subtrees are memoized by identity, and a mutation forgets the containers along
 * its path only, so moving one wide subtree back and forth 10,000 times walks it once.
 *
 * @module
 */
import { type Container, childrenOf, isContainer, MAX_OBJECT_DEPTH } from '../json-depth.js';

/**
 * Upstream's `JSONPatchMaxCopyBytes` (3 MiB, twice etcd's 1.5 MB request size): how many
 * bytes (of the copied values' JSON) the `copy` operations of one patch may add in all.
 */
export const MAX_COPY_BYTES = 3 * 1024 * 1024;

/** evanphx/json-patch's `AccumulatedCopySizeError` text (v4, which kube-apiserver uses). */
export function copyLimitMessage(accumulated: number): string {
  return `Unable to complete the copy, the accumulated size increase of copy is ${accumulated}, exceeding the limit ${MAX_COPY_BYTES}`;
}

export class PatchBudget {
  /** Bytes added by `copy` so far. */
  copied = 0;
  /** The deepest the document has been during the patch (an upper bound of its depth now). */
  depth: number;
  private readonly depths = new WeakMap<object, number>();

  constructor(doc: unknown) {
    this.depth = this.depthOf(doc);
  }

  /** Counts a copied value; false once past {@link MAX_COPY_BYTES}. */
  addCopy(value: unknown): boolean {
    this.copied += Buffer.byteLength(JSON.stringify(value) ?? '');
    return this.copied <= MAX_COPY_BYTES;
  }

  /**
   * Records `value` placed `parents` levels down; false when the document would be deeper
   * than {@link MAX_OBJECT_DEPTH}.
   */
  place(parents: number, value: unknown): boolean {
    const depth = parents + this.depthOf(value);
    if (depth > this.depth) this.depth = depth;
    return this.depth <= MAX_OBJECT_DEPTH;
  }

  /** Forgets the memoized depths of the containers a mutation at `tokens` changes. */
  mutating(doc: unknown, tokens: readonly string[]): void {
    let node = doc;
    for (const token of tokens) {
      if (!isContainer(node)) return;
      this.depths.delete(node);
      node = Array.isArray(node)
        ? node[Number(token)]
        : Object.hasOwn(node, token)
          ? node[token]
          : undefined;
    }
  }

  private unknownChildren(node: Container): Container[] {
    return childrenOf(node).filter((c): c is Container => isContainer(c) && !this.depths.has(c));
  }

  /** Nesting depth (objects and arrays count one level each), iterative and memoized. */
  depthOf(value: unknown): number {
    if (!isContainer(value)) return 0;
    type Entry = { node: Container; entered: boolean; level: number };
    const stack: Entry[] = [{ node: value, entered: false, level: 1 }];
    for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
      if (this.depths.has(top.node)) {
        stack.pop();
        continue;
      }
      if (!top.entered) {
        top.entered = true;
        // Past the limit the exact depth does not matter: stop (bounds the work).
        if (top.level > MAX_OBJECT_DEPTH) return MAX_OBJECT_DEPTH + 1;
        for (const c of this.unknownChildren(top.node)) {
          stack.push({ node: c, entered: false, level: top.level + 1 });
        }
        continue;
      }
      stack.pop();
      let deepest = 0;
      for (const c of childrenOf(top.node)) {
        if (isContainer(c)) deepest = Math.max(deepest, this.depths.get(c) ?? 0);
      }
      this.depths.set(top.node, deepest + 1);
    }
    return this.depths.get(value) ?? 0;
  }
}
