/**
 * JSON Patch (RFC 6902), the `application/json-patch+json` PATCH body of `kubectl patch
 * --type=json`, `rollout undo` (deployments) and client-node's generated `patch*` methods.
 *
 * Written here rather than on the installed `fast-json-patch@3.1.1`, whose behaviour differs
 * from the RFC in ways users would notice: without its validation flag, `replace` of a missing
 * member silently adds it, `remove` of a missing member succeeds, and an out-of-range array
 * index appends; with the flag it still accepts leading-zero indices (`/a/01`), and it always
 * refuses `__proto__` members, which are ordinary keys in JSON. Its errors also do not separate
 * the three outcomes the API server must tell apart.
 *
 * Outcomes, as upstream's `jsonPatcher.applyJSPatch` (apiserver `handlers/patch.go`) has them:
 * - the body is not a list of operation objects → {@link JsonPatchDecodeError}, 400 BadRequest
 *   with the decoder's text (upstream decodes into `[]map[string]RawMessage` and nothing more,
 *   so unknown ops, missing members and bad pointers are *apply* failures, not decode ones);
 * - more than 10,000 operations → {@link JsonPatchTooLargeError}, 413;
 * - any operation failing → {@link JsonPatchApplyError}, 422 Invalid with upstream's generic
 *   message (upstream drops the library's reason; we keep it in `detail` for logs). That
 *   includes `copy`s adding more than 3 MiB in all ({@link MAX_COPY_BYTES}, upstream's
 *   `JSONPatchMaxCopyBytes` as `jsonpatch.AccumulatedCopySizeLimit`): without it one `add`
 *   and 40 `copy`s of the growing document onto itself need 2^40 times the memory;
 * - a document nested deeper than 500 levels at any point ({@link JsonPatchTooDeepError},
 *   422): `copy` and `move` deepen it without a deep patch, and every walker after this one
 *   recurses (see `src/api/json-depth.ts`; upstream fails decoding the patched object, 422).
 *
 * Kept to the RFC where upstream's evanphx/json-patch v4 is laxer: negative array indices and
 * leading zeros are refused, a `value` member is required for add/replace/test, and `test` of
 * a missing location fails.
 *
 * @module
 */
import { StatusError } from '../errors.js';
import { objectDepthError } from '../json-depth.js';
import { copyLimitMessage, PatchBudget } from './json-patch-budget.js';
import { cloneJson, setMember } from './merge-patch.js';

/** Upstream `maxJSONPatchOperations`. */
export const MAX_JSON_PATCH_OPERATIONS = 10000;

export { MAX_COPY_BYTES } from './json-patch-budget.js';

/** Upstream's `NewGenericServerResponse` text for a 422 without details. */
export const JSON_PATCH_APPLY_MESSAGE =
  'the server rejected our request due to an error in our request';

/** 400: the body does not decode as a list of operation objects. */
export class JsonPatchDecodeError extends StatusError {
  readonly kind = 'decode';
  constructor(message: string) {
    super(400, 'BadRequest', message);
    this.name = 'JsonPatchDecodeError';
  }
}

/** 413: more operations than upstream allows. */
export class JsonPatchTooLargeError extends StatusError {
  readonly kind = 'tooLarge';
  constructor(count: number) {
    super(
      413,
      'RequestEntityTooLarge',
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${count}`,
    );
    this.name = 'JsonPatchTooLargeError';
  }
}

/** 422: an operation could not be applied (failed `test`, missing path, unknown op, …). */
export class JsonPatchApplyError extends StatusError {
  readonly kind = 'apply';
  /** Why it failed, e.g. `testing value /spec/replicas failed`; upstream does not send this. */
  readonly detail: string;
  /** Zero-based index of the failing operation. */
  readonly operationIndex: number;
  constructor(operationIndex: number, detail: string) {
    super(422, 'Invalid', JSON_PATCH_APPLY_MESSAGE, {});
    this.name = 'JsonPatchApplyError';
    this.detail = detail;
    this.operationIndex = operationIndex;
  }
}

/** 422: the patched document would nest deeper than this server processes. */
export class JsonPatchTooDeepError extends StatusError {
  readonly kind = 'tooDeep';
  /** Zero-based index of the operation that went too deep. */
  readonly operationIndex: number;
  constructor(operationIndex: number) {
    super(
      422,
      'Invalid',
      `the patched object is invalid: ${objectDepthError('it')} (JSON patch operation ${operationIndex})`,
      {},
    );
    this.name = 'JsonPatchTooDeepError';
    this.operationIndex = operationIndex;
  }
}

/** Any error {@link applyJsonPatch} throws. */
export type JsonPatchError =
  | JsonPatchDecodeError
  | JsonPatchTooLargeError
  | JsonPatchApplyError
  | JsonPatchTooDeepError;

type JsonObject = Record<string, unknown>;

/** Internal: one operation failed; the caller adds the operation index. */
class OpFailure extends Error {}

function fail(detail: string): never {
  throw new OpFailure(detail);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Go's name for a JSON value's type in `json: cannot unmarshal X into …`. */
function goJsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * Upstream's decode step (`json.Unmarshal` into `jsonpatch.Patch`): the body must be an array
 * (or `null`, an empty patch) of objects or `null`s; the error texts are Go's.
 */
function decodeOperations(ops: unknown): readonly unknown[] {
  if (ops === null) return [];
  if (!Array.isArray(ops)) {
    throw new JsonPatchDecodeError(
      `json: cannot unmarshal ${goJsonType(ops)} into Go value of type jsonpatch.Patch`,
    );
  }
  const bad = ops.find((op) => op !== null && !isObject(op));
  if (bad !== undefined) {
    throw new JsonPatchDecodeError(
      `json: cannot unmarshal ${goJsonType(bad)} into Go value of type jsonpatch.Operation`,
    );
  }
  return ops;
}

/** RFC 6901: `""` is the whole document; otherwise `/`-separated, `~1` → `/`, `~0` → `~`. */
function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) fail(`JSON pointer must start with '/': "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((token) => {
      if (/~[^01]|~$/.test(token)) fail(`invalid escape in JSON pointer: "${pointer}"`);
      return token.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

/** An existing array index: `0` or digits without a leading zero, below the length. */
function arrayIndex(arr: readonly unknown[], token: string, pointer: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= arr.length) {
    fail(`Unable to access invalid index: ${token} in "${pointer}"`);
  }
  return Number(token);
}

function child(container: unknown, token: string, pointer: string): unknown {
  if (isArray(container)) return container[arrayIndex(container, token, pointer)];
  if (isObject(container) && Object.hasOwn(container, token)) return container[token];
  return fail(`doc is missing path: "${pointer}"`);
}

/** The value at `pointer`, which must exist. */
function getAt(doc: unknown, pointer: string): unknown {
  let node = doc;
  for (const token of parsePointer(pointer)) node = child(node, token, pointer);
  return node;
}

function isArray(v: unknown): v is unknown[] {
  return Array.isArray(v);
}

/** The container holding the last token of a non-root pointer, and that token. */
function parentOf(
  doc: unknown,
  tokens: readonly string[],
  pointer: string,
): { parent: unknown[] | JsonObject; key: string } {
  let node = doc;
  for (const token of tokens.slice(0, -1)) node = child(node, token, pointer);
  if (!isArray(node) && !isObject(node)) fail(`doc is missing path: "${pointer}"`);
  return { parent: node, key: tokens[tokens.length - 1] ?? '' };
}

function memberOf(op: JsonObject, name: string): string {
  const v = op[name];
  if (typeof v !== 'string') fail(`operation missing ${name} field`);
  return v;
}

function operationValue(op: JsonObject): unknown {
  if (!Object.hasOwn(op, 'value')) fail(`${String(op.op)} operation missing value field`);
  return cloneJson(op.value);
}

/** Internal: the operation would make the document too deep. */
class TooDeep extends Error {}

/**
 * RFC 6902 section 4.1 `add`; returns the new document (it changes only when `pointer` is `""`).
 */
function addAt(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, pointer);
  if (!isArray(parent)) {
    setMember(parent, key, value);
  } else if (key === '-') {
    parent.push(value);
  } else if (/^(0|[1-9][0-9]*)$/.test(key) && Number(key) <= parent.length) {
    parent.splice(Number(key), 0, value);
  } else {
    fail(`Unable to access invalid index: ${key} in "${pointer}"`);
  }
  return doc;
}

/** RFC 6902 section 4.2 `remove`; returns the removed value. */
function removeAt(doc: unknown, pointer: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) fail('cannot remove the whole document');
  const { parent, key } = parentOf(doc, tokens, pointer);
  if (isArray(parent)) return parent.splice(arrayIndex(parent, key, pointer), 1)[0];
  if (!Object.hasOwn(parent, key)) fail(`Unable to remove nonexistent key: ${key}`);
  const removed = parent[key];
  delete parent[key];
  return removed;
}

/** RFC 6902 section 4.3 `replace`: the target must exist; it is overwritten in place. */
function replaceAt(doc: unknown, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value;
  const { parent, key } = parentOf(doc, tokens, pointer);
  if (isArray(parent)) {
    parent[arrayIndex(parent, key, pointer)] = value;
  } else if (Object.hasOwn(parent, key)) {
    setMember(parent, key, value);
  } else {
    fail(`replace operation does not apply: doc is missing key: ${pointer}`);
  }
  return doc;
}

function moveAt(doc: unknown, from: string, pointer: string): unknown {
  if (from === pointer) {
    getAt(doc, from);
    return doc;
  }
  if (pointer.startsWith(`${from}/`) || from === '') {
    fail(`move operation: "from" ${from} is a prefix of "path" ${pointer}`);
  }
  return addAt(doc, pointer, removeAt(doc, from));
}

/** JSON equality: objects by members regardless of order, arrays by position. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
}

function testAt(doc: unknown, pointer: string, expected: unknown): void {
  if (!jsonEqual(getAt(doc, pointer), expected)) fail(`testing value ${pointer} failed`);
}

/** Checks the depth `value` gives the document once placed at `pointer`, before it is. */
function place(doc: unknown, budget: PatchBudget, pointer: string, value: unknown): unknown {
  const tokens = parsePointer(pointer);
  budget.mutating(doc, tokens);
  if (!budget.place(tokens.length, value)) throw new TooDeep();
  return value;
}

/** Applies one operation to the working copy and returns the (possibly new) document. */
function applyOperation(doc: unknown, raw: unknown, budget: PatchBudget): unknown {
  if (!isObject(raw)) return fail('Unexpected kind: unknown');
  const kind = typeof raw.op === 'string' ? raw.op : 'unknown';
  switch (kind) {
    case 'add': {
      const path = memberOf(raw, 'path');
      return addAt(doc, path, place(doc, budget, path, operationValue(raw)));
    }
    case 'remove': {
      const path = memberOf(raw, 'path');
      budget.mutating(doc, parsePointer(path));
      removeAt(doc, path);
      return doc;
    }
    case 'replace': {
      const path = memberOf(raw, 'path');
      return replaceAt(doc, path, place(doc, budget, path, operationValue(raw)));
    }
    case 'move': {
      const from = memberOf(raw, 'from');
      const path = memberOf(raw, 'path');
      const value = getAt(doc, from);
      budget.mutating(doc, parsePointer(from));
      place(doc, budget, path, value);
      return moveAt(doc, from, path);
    }
    case 'copy': {
      const path = memberOf(raw, 'path');
      const source = getAt(doc, memberOf(raw, 'from'));
      place(doc, budget, path, source);
      if (!budget.addCopy(source)) fail(copyLimitMessage(budget.copied));
      return addAt(doc, path, cloneJson(source));
    }
    case 'test':
      testAt(doc, memberOf(raw, 'path'), operationValue(raw));
      return doc;
    default:
      return fail(`Unexpected kind: ${kind}`);
  }
}

/**
 * Applies an RFC 6902 patch (already JSON-decoded) to `target`. Pure: neither argument is
 * modified, and the result shares no objects or arrays with them. Operations apply in order
 * and the patch is atomic: any failure throws and nothing is returned.
 *
 * @throws {JsonPatchDecodeError} `ops` is not an array of objects (400).
 * @throws {JsonPatchTooLargeError} more than {@link MAX_JSON_PATCH_OPERATIONS} operations (413).
 * @throws {JsonPatchApplyError} an operation failed (422), copies included past 3 MiB.
 * @throws {JsonPatchTooDeepError} the document would nest deeper than 500 levels (422).
 */
export function applyJsonPatch(target: unknown, ops: unknown): unknown {
  const operations = decodeOperations(ops);
  if (operations.length > MAX_JSON_PATCH_OPERATIONS) {
    throw new JsonPatchTooLargeError(operations.length);
  }
  // cloneJson recurses, which is safe here: the patch and the target are at most 500 levels
  // deep (checked on decode) and PatchBudget refuses an operation that would go deeper.
  let doc = cloneJson(target);
  const budget = new PatchBudget(doc);
  operations.forEach((op, i) => {
    try {
      doc = applyOperation(doc, op, budget);
    } catch (e) {
      if (e instanceof OpFailure) throw new JsonPatchApplyError(i, e.message);
      if (e instanceof TooDeep) throw new JsonPatchTooDeepError(i);
      throw e;
    }
  });
  return doc;
}
