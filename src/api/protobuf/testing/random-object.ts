/**
 * Test helper: random objects in the exact JSON form Go's `encoding/json` gives a Go value of
 * a schema message (omitempty zeros dropped, nil pointers absent, structs always present, map
 * keys sorted), for round-trip properties: `decode(encode(x))` must equal `x`.
 *
 * @module
 */

import { jsonForm } from '../json-forms.js';
import { messageSpec } from '../registry.js';
import type { FieldSpec, MessageName, ScalarType, SpecialType } from '../schema.js';

type JsonObject = Record<string, unknown>;

/** A seeded PRNG (mulberry32): the same seed gives the same object. */
export class Rng {
  #state: number;
  /** Messages made with this generator so far (optional parts stop past a budget). */
  messages = 0;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }
}

const WORDS = ['', 'a', 'web', 'nginx:1.27', 'ü-ñ', 'x.y/z', '10.0.0.1', 'Always', '日本'];
const QUANTITIES = ['0', '1', '500m', '64Mi', '1Gi', '2', '100k'];
const ZERO_OR_EDGE_INT32 = [0, 1, -1, 2147483647, -2147483648];
const MAX_DEPTH = 12;
const MAX_MESSAGES = 300;

function scalar(type: ScalarType, rng: Rng, nonZero: boolean): unknown {
  for (;;) {
    const v = rawScalar(type, rng);
    if (!nonZero || (v !== '' && v !== 0 && v !== false)) return v;
  }
}

function rawScalar(type: ScalarType, rng: Rng): unknown {
  switch (type) {
    case 'string':
      return rng.pick(WORDS);
    case 'bool':
      return rng.chance(0.5);
    case 'int32':
      return rng.chance(0.3) ? rng.pick(ZERO_OR_EDGE_INT32) : rng.int(-1000, 100000);
    case 'double':
      return rng.pick([0, 1.5, -2, 1e21, 0.1, 12345.678]);
    case 'int64':
      return rng.chance(0.2)
        ? rng.pick([0, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER])
        : rng.int(-5, 10 ** 9);
    case 'bytes':
      return Buffer.from(Array.from({ length: rng.int(0, 6) }, () => rng.int(0, 255))).toString(
        'base64',
      );
  }
}

function time(rng: Rng, micro: boolean): string {
  const iso = new Date(rng.int(0, 4102444800) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return micro ? `${iso}.${String(rng.int(0, 999999)).padStart(6, '0')}Z` : `${iso}Z`;
}

/** A value of a special type; `pointer` values are never the zero form (see the encoder). */
function special(type: SpecialType, rng: Rng, pointer: boolean): unknown {
  switch (type) {
    case 'Time':
    case 'MicroTime':
      return !pointer && rng.chance(0.4) ? null : time(rng, type === 'MicroTime');
    case 'IntOrString':
      return rng.chance(0.5) ? rng.int(-10, 65535) : rng.pick(WORDS);
    case 'Quantity':
      return rng.pick(QUANTITIES);
    case 'FieldsV1':
    case 'RawExtension':
      return !pointer && rng.chance(0.3) ? null : { 'f:spec': { '.': {} }, n: rng.int(0, 9) };
    case 'JSON':
      return !pointer && rng.chance(0.3) ? null : rng.pick([{ a: [1, 'x'] }, 'text', 3, true]);
  }
}

function element(field: FieldSpec, rng: Rng, depth: number, pointer = false): unknown {
  if (field.kind === 'scalar') return scalar(field.type as ScalarType, rng, false);
  if (field.kind === 'special') return special(field.type as SpecialType, rng, pointer);
  const name = field.type as MessageName;
  return jsonForm(name, randomMessage(name, rng, depth + 1));
}

function collection(field: FieldSpec, rng: Rng, depth: number): unknown {
  const n = rng.int(1, 3);
  if (field.repeated) return Array.from({ length: n }, () => element(field, rng, depth));
  const keys = [...new Set(Array.from({ length: n }, () => rng.pick(WORDS)))].sort();
  return Object.fromEntries(keys.map((k) => [k, element(field, rng, depth)]));
}

/**
 * How likely an optional part is at a depth. Parts thin out with depth so objects stay small,
 * and stop past a depth or a number of messages: JSONSchemaProps has eleven fields that nest
 * it again, so without a bound its tree would grow without end.
 */
function chanceAt(rng: Rng, depth: number): number {
  if (depth > MAX_DEPTH || rng.messages > MAX_MESSAGES) return 0;
  return Math.max(0.05, 0.6 - depth * 0.12);
}

/** A value for an absent optional field: nothing with omitempty, else Go's `null`. */
function absent(out: JsonObject, field: FieldSpec): void {
  if (!field.omitempty) out[field.json] = null;
}

function fill(out: JsonObject, field: FieldSpec, rng: Rng, depth: number): void {
  const p = chanceAt(rng, depth);
  if (field.inline) {
    Object.assign(out, randomMessage(field.type as MessageName, rng, depth + 1));
  } else if (field.repeated || field.map) {
    if (rng.chance(p)) out[field.json] = collection(field, rng, depth);
    else absent(out, field);
  } else if (field.pointer) {
    // A set pointer to a union that Go writes as `null` reads back from JSON as nil.
    const value = rng.chance(p) ? element(field, rng, depth, true) : null;
    if (value !== null) out[field.json] = value;
    else absent(out, field);
  } else if (field.kind === 'scalar') {
    const type = field.type as ScalarType;
    if (!field.omitempty) out[field.json] = scalar(type, rng, false);
    else if (rng.chance(p)) out[field.json] = scalar(type, rng, true);
  } else {
    out[field.json] = element(field, rng, depth);
  }
}

/** A random object of one message, in Go's JSON form and field order. */
export function randomMessage(name: MessageName, rng: Rng, depth = 0): JsonObject {
  const out: JsonObject = {};
  rng.messages++;
  for (const field of messageSpec(name).fields) fill(out, field, rng, depth);
  return out;
}
