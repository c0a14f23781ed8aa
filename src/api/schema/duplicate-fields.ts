/**
 * Duplicate object keys, which `JSON.parse` silently collapses (the last value wins) but
 * upstream's strict decoding reports.
 *
 * JSON bodies: `sigs.k8s.io/json` `UnmarshalStrict` reports `duplicate field "<path>"` for each
 * repeated key, in document order, with the path of the field (`spec.paused`,
 * `spec.template.spec.containers[0].imagePullPolicy`). {@link parseJsonMembers} keeps every
 * member of every object so the schema walk in `unknown-fields.ts` can report duplicates and
 * unknown fields interleaved exactly as upstream's single decoding pass does.
 *
 * YAML bodies (`application/yaml`, `application/apply-patch+yaml`): upstream converts YAML with
 * go-yaml v2 in strict mode, whose errors are `line <n>: key "<key>" already set in map`, where
 * `<n>` is the 1-based line of the repeated key; they are collected into one error
 * `yaml: unmarshal errors:\n  <line error>\n  <line error>`.
 *
 * @module
 */
import { type Document, isMap, isScalar, LineCounter, parseDocument, visit } from 'yaml';

/** An object's members in document order, duplicates included. */
export type MemberList = readonly (readonly [key: string, value: unknown])[];

export interface ParsedJson {
  /** The value as `JSON.parse` would return it. */
  readonly value: unknown;
  /** Every object's members as written (only objects with a repeated key are recorded). */
  readonly members: WeakMap<object, MemberList>;
}

/** Parses JSON text like `JSON.parse`, also recording objects' repeated keys. Throws SyntaxError. */
export function parseJsonMembers(text: string): ParsedJson {
  // JSON.parse validates the syntax (and gives the usual error messages); the scanner then
  // rebuilds the value from the known-good text, keeping every member of objects with repeats.
  JSON.parse(text);
  const members = new WeakMap<object, MemberList>();
  const value = new JsonScanner(text, members).value();
  return { value, members };
}

/** Upstream-format paths of repeated keys in a JSON text, in document order. */
export function findDuplicateFields(text: string): string[] {
  const { value, members } = parseJsonMembers(text);
  const out: string[] = [];
  collectDuplicates(value, '', members, out);
  return out;
}

function collectDuplicates(
  value: unknown,
  path: string,
  members: WeakMap<object, MemberList>,
  out: string[],
): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) collectDuplicates(item, `${path}[${i}]`, members, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const seen = new Set<string>();
  for (const [key, child] of members.get(value) ?? Object.entries(value)) {
    const childPath = path === '' ? key : `${path}.${key}`;
    if (seen.has(key)) out.push(childPath);
    seen.add(key);
    collectDuplicates(child, childPath, members, out);
  }
}

/** Rebuilds values from a JSON text already validated by JSON.parse. */
class JsonScanner {
  readonly #text: string;
  readonly #members: WeakMap<object, MemberList>;
  #pos = 0;

  constructor(text: string, members: WeakMap<object, MemberList>) {
    this.#text = text;
    this.#members = members;
  }

  value(): unknown {
    this.#skipSpace();
    const c = this.#text[this.#pos];
    if (c === '{') return this.#object();
    if (c === '[') return this.#array();
    return this.#scalar();
  }

  #object(): Record<string, unknown> {
    this.#pos++;
    const obj: Record<string, unknown> = {};
    const list: (readonly [string, unknown])[] = [];
    let repeated = false;
    this.#skipSpace();
    if (this.#text[this.#pos] === '}') {
      this.#pos++;
      return obj;
    }
    do {
      this.#skipSpace();
      // A key of valid JSON (the text passed JSON.parse) is a string: String() returns it.
      const key = String(this.#scalar());
      this.#skipSpace();
      this.#pos++; // ':'
      const child = this.value();
      repeated ||= Object.hasOwn(obj, key);
      // defineProperty, as JSON.parse does: a "__proto__" key is data, not the prototype.
      Object.defineProperty(obj, key, {
        value: child,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      list.push([key, child]);
      this.#skipSpace();
    } while (this.#text[this.#pos++] === ',');
    if (repeated) this.#members.set(obj, list);
    return obj;
  }

  #array(): unknown[] {
    this.#pos++;
    const items: unknown[] = [];
    this.#skipSpace();
    if (this.#text[this.#pos] === ']') {
      this.#pos++;
      return items;
    }
    do {
      items.push(this.value());
      this.#skipSpace();
    } while (this.#text[this.#pos++] === ',');
    return items;
  }

  /** A string, number or literal, read by JSON.parse itself. */
  #scalar(): unknown {
    const start = this.#pos;
    if (this.#text[start] === '"') {
      let i = start + 1;
      while (this.#text[i] !== '"') i += this.#text[i] === '\\' ? 2 : 1;
      this.#pos = i + 1;
    } else {
      while (this.#pos < this.#text.length && !/[\s,\]}]/.test(this.#text[this.#pos] ?? '')) {
        this.#pos++;
      }
    }
    return JSON.parse(this.#text.slice(start, this.#pos));
  }

  #skipSpace(): void {
    while (/\s/.test(this.#text[this.#pos] ?? '')) this.#pos++;
  }
}

/** go-yaml's `%#v` of a map key. */
function goKey(key: unknown): string {
  if (typeof key === 'string') return JSON.stringify(key);
  if (key === null || key === undefined) return '<nil>';
  return String(key);
}

/**
 * go-yaml v2 strict errors for repeated mapping keys in a YAML (or JSON) text, in document
 * order: `line 10: key "paused" already set in map`. Only the first document is read, as
 * upstream's YAML-to-JSON conversion does.
 */
export function findYamlDuplicateKeys(text: string): string[] {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { uniqueKeys: false, lineCounter });
  const out: string[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        const id = isMap(key) ? JSON.stringify(key.toJSON()) : `${typeof key}:${String(key)}`;
        if (seen.has(id)) {
          const offset = isScalar(pair.key) ? (pair.key.range?.[0] ?? 0) : 0;
          out.push(
            `line ${lineCounter.linePos(offset).line}: key ${goKey(key)} already set in map`,
          );
        }
        seen.add(id);
      }
    },
  });
  return out;
}

/**
 * Whether a JSON text repeats a key in any object: a scan that builds no values (about
 * 3× faster than `JSON.parse` on a 1 KiB object), so the common case, no repeats, costs one
 * pass. The text must be valid JSON (parse it first).
 */
export function hasDuplicateKeys(text: string): boolean {
  const scan = new KeyScan();
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = closingQuote(text, i);
      if (end < 0) return false;
      if (scan.expectKey && scan.repeats(text.slice(i + 1, end))) return true;
      i = end;
    } else {
      scan.structural(c);
    }
  }
  return false;
}

const QUOTE = 0x22;

/** The open objects' keys (undefined for arrays) and whether a key comes next. */
class KeyScan {
  readonly #stack: Array<Set<string> | undefined> = [];
  expectKey = false;

  repeats(raw: string): boolean {
    this.expectKey = false;
    const keys = this.#stack[this.#stack.length - 1];
    if (keys === undefined) return false;
    const key = raw.includes('\\') ? String(JSON.parse(`"${raw}"`)) : raw;
    if (keys.has(key)) return true;
    keys.add(key);
    return false;
  }

  structural(c: number): void {
    if (c === 0x7b /* { */) {
      this.#stack.push(new Set());
      this.expectKey = true;
    } else if (c === 0x5b /* [ */) {
      this.#stack.push(undefined);
      this.expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      this.#stack.pop();
      this.expectKey = false;
    } else if (c === 0x2c /* , */) {
      this.expectKey = this.#stack[this.#stack.length - 1] !== undefined;
    }
  }
}

/** The index of the quote that closes the string opening at `at`, or -1. */
function closingQuote(text: string, at: number): number {
  let end = text.indexOf('"', at + 1);
  while (end > 0 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
  return end;
}

/** Whether the quote at `at` is escaped (an odd number of backslashes before it). */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let j = at - 1; j >= 0 && text.charCodeAt(j) === 0x5c; j--) backslashes++;
  return backslashes % 2 === 1;
}
