/**
 * Tolerant field access for printers: objects reach a printer after validation, but a Table
 * must still render (never throw) for an object with fields missing or of the wrong type.
 * Missing values read as Go's zero values, as they would after decoding into the Go types.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../object.js';
import { translateTimestampSince } from './duration.js';

export type Json = Record<string, unknown>;

const EMPTY: Json = Object.freeze({});

export function obj(v: unknown): Json {
  return isJsonObject(v) ? v : EMPTY;
}

/** The value when it is a JSON object, else `undefined` (a Go nil pointer). */
export function optObj(v: unknown): Json | undefined {
  return isJsonObject(v) ? v : undefined;
}

export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

export function objs(v: unknown): Json[] {
  return arr(v).map(obj);
}

export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** The value when it is a string, else `undefined` (a Go nil `*string`). */
export function optStr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function int(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0;
}

export function bool(v: unknown): boolean {
  return v === true;
}

/** A string-keyed map of strings (labels, selectors, annotations). */
export function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v))) if (typeof x === 'string') out[k] = x;
  return out;
}

export function meta(o: KubeObject): Json {
  return obj(o.metadata);
}

export function nameOf(o: KubeObject): string {
  return str(meta(o).name);
}

export function ageOf(o: KubeObject, now: Date): string {
  return translateTimestampSince(meta(o).creationTimestamp, now);
}

export function isDeleting(o: KubeObject): boolean {
  const ts = meta(o).deletionTimestamp;
  return ts !== undefined && ts !== null;
}
