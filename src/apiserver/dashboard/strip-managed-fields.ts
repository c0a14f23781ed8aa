/**
 * An object's JSON text without `metadata.managedFields`, cut out of the text rather than
 * parsed and re-encoded: the dashboard's change recorder sees every write, and managed fields
 * are often half of an object (a pod's ~2.4 of ~4.9 KB). kubectl hides them too (since 1.21);
 * the page's object view reads the object itself from the API.
 *
 * The scan follows the text's nesting and strings, so a `managedFields` anywhere but directly
 * in the top-level `metadata` is left alone. Text it does not understand is returned as is.
 *
 * @module
 */

/** `json` with the top-level `metadata.managedFields` member removed, if it has one. */
export function withoutManagedFields(json: string): string {
  if (!json.includes('"managedFields"')) return json;
  const metadata = memberValueStart(json, 'metadata');
  if (metadata === undefined || json[metadata] !== '{') return json;
  const key = memberKeyStart(json, metadata, 'managedFields');
  if (key === undefined) return json;
  const valueStart = json.indexOf(':', key) + 1;
  const valueEnd = skipValue(json, valueStart);
  if (valueEnd === undefined) return json;
  // Remove the member and one comma beside it: the one after it, else the one before.
  if (json[valueEnd] === ',') return json.slice(0, key) + json.slice(valueEnd + 1);
  const before = json.lastIndexOf(',', key);
  const opener = json.lastIndexOf('{', key);
  if (before > opener) return json.slice(0, before) + json.slice(valueEnd);
  return json.slice(0, key) + json.slice(valueEnd);
}

/** Where the value of the top-level member `name` starts. */
function memberValueStart(json: string, name: string): number | undefined {
  const key = memberKeyStart(json, json.indexOf('{'), name);
  if (key === undefined) return undefined;
  return json.indexOf(':', key) + 1;
}

/** Where the key `"name"` of a direct member of the object opening at `open` starts. */
function memberKeyStart(json: string, open: number, name: string): number | undefined {
  let i = skipSpaces(json, open + 1);
  while (json[i] === '"') {
    const keyEnd = stringEnd(json, i);
    if (keyEnd === undefined) return undefined;
    if (json.slice(i + 1, keyEnd) === name) return i;
    const valueEnd = skipValue(json, json.indexOf(':', keyEnd) + 1);
    if (valueEnd === undefined) return undefined;
    i = skipSpaces(json, valueEnd);
    if (json[i] !== ',') return undefined;
    i = skipSpaces(json, i + 1);
  }
  return undefined;
}

/** The index of the closing quote of the string opening at `at`. */
function stringEnd(json: string, at: number): number | undefined {
  for (let i = at + 1; i < json.length; i++) {
    if (json[i] === '\\') i++;
    else if (json[i] === '"') return i;
  }
  return undefined;
}

/** The index just past the bracket closing the object or array opening at `open`. */
function closeOf(json: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      const end = stringEnd(json, i);
      if (end === undefined) return undefined;
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
  }
  return undefined;
}

/** The index just past the JSON value starting at `at` (after optional spaces). */
function skipValue(json: string, at: number): number | undefined {
  const i = skipSpaces(json, at);
  const c = json[i];
  if (c === '"') {
    const end = stringEnd(json, i);
    return end === undefined ? undefined : end + 1;
  }
  if (c === '{' || c === '[') return closeOf(json, i);
  // A number, true, false or null: up to the next delimiter.
  const rest = /[,}\]\s]/.exec(json.slice(i));
  return rest === null ? undefined : i + rest.index;
}

function skipSpaces(json: string, at: number): number {
  let i = at;
  while (json[i] === ' ' || json[i] === '\n' || json[i] === '\t' || json[i] === '\r') i++;
  return i;
}
