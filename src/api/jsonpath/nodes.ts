/**
 * The parse tree of a Kubernetes JSONPath template, after upstream's
 * `k8s.io/client-go/util/jsonpath` `node.go`: a template is a list of text runs and
 * `{…}` actions, each action a list of steps evaluated left to right.
 *
 * @module
 */

/** One bound of an array slice `[start:end:step]`; `derived` marks the end of `[n]` (= n+1). */
export interface SliceParam {
  readonly known: boolean;
  readonly value: number;
  readonly derived: boolean;
}

export interface ListNode {
  readonly type: 'list';
  readonly nodes: JsonPathNode[];
}

export type JsonPathNode =
  | ListNode
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'field'; readonly name: string }
  | { readonly type: 'array'; readonly params: readonly [SliceParam, SliceParam, SliceParam] }
  | {
      readonly type: 'filter';
      readonly left: ListNode;
      readonly right: ListNode;
      /** `==`, `!=`, `<`, `>`, `<=`, `>=`, `exists`, or whatever else was written (an error at evaluation). */
      readonly operator: string;
    }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'wildcard' }
  | { readonly type: 'recursive' }
  | { readonly type: 'union'; readonly nodes: readonly ListNode[] }
  | { readonly type: 'identifier'; readonly name: string };

export function newList(): ListNode {
  return { type: 'list', nodes: [] };
}

/** A parse or evaluation failure, with upstream's message text. */
export class JsonPathError extends Error {
  override readonly name = 'JsonPathError';
}
