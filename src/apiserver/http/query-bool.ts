/**
 * Boolean query parameters as upstream converts them (`Convert_Slice_string_To_bool` in
 * k8s.io/apimachinery/pkg/runtime/conversion.go): present with `0` or any case of `false` is
 * false, present with anything else, the empty string included, is true; only the first value
 * counts. The official Python client sends `watch=True`, which a `=== 'true'` test read as a
 * list.
 *
 * @module
 */

/** The parameter's value, or `undefined` when the query does not carry it. */
export function queryBool(query: URLSearchParams, name: string): boolean | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  return !(value === '0' || value.toLowerCase() === 'false');
}

/** The parameter's value; absent is false, as a Go bool field left unset. */
export function queryFlag(query: URLSearchParams, name: string): boolean {
  return queryBool(query, name) ?? false;
}
