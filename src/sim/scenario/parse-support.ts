/**
 * Typed reads of a schema-checked scenario value. The schema has already guaranteed the
 * shapes, so these accessors only narrow `unknown` for the compiler; the checks a schema
 * cannot make (durations, selectors) record a problem at the field's path and return a
 * fallback, so one pass reports every problem in the file.
 *
 * @module
 */
import { parseLabelSelector } from '../../api/labels/selector.js';
import { parseGoDuration } from '../kubelet/annotations.js';
import type { JsonPath, SchemaError } from './json-schema.js';

export type Problems = SchemaError[];

export class Fields {
  readonly raw: unknown;
  readonly path: JsonPath;
  readonly problems: Problems;
  readonly #obj: Readonly<Record<string, unknown>>;

  constructor(raw: unknown, path: JsonPath, problems: Problems) {
    this.raw = raw;
    this.path = path;
    this.problems = problems;
    this.#obj =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw)
        ? Object.fromEntries(Object.entries(raw))
        : {};
  }

  has(key: string): boolean {
    return key in this.#obj;
  }

  value(key: string): unknown {
    return this.#obj[key];
  }

  /** Records a problem at `key` of this object (or at the object itself). */
  problem(key: string | undefined, message: string): void {
    this.problems.push({ path: key === undefined ? this.path : [...this.path, key], message });
  }

  string(key: string): string {
    return this.optString(key) ?? '';
  }

  optString(key: string): string | undefined {
    const v = this.#obj[key];
    return typeof v === 'string' ? v : undefined;
  }

  optNumber(key: string): number | undefined {
    const v = this.#obj[key];
    return typeof v === 'number' ? v : undefined;
  }

  optBoolean(key: string): boolean | undefined {
    const v = this.#obj[key];
    return typeof v === 'boolean' ? v : undefined;
  }

  optStrings(key: string): string[] | undefined {
    const v = this.#obj[key];
    return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : undefined;
  }

  optObject(key: string): Fields | undefined {
    const v = this.#obj[key];
    return typeof v === 'object' && v !== null && !Array.isArray(v)
      ? new Fields(v, [...this.path, key], this.problems)
      : undefined;
  }

  /** The objects of a list field (absent: none). */
  list(key: string): Fields[] {
    const v = this.#obj[key];
    if (!Array.isArray(v)) return [];
    return v.map((item, i) => new Fields(item, [...this.path, key, i], this.problems));
  }

  /** A Go duration in ms; absent: `fallback`; invalid or not positive: a problem. */
  duration(key: string, fallback: number): number {
    const text = this.optString(key);
    if (text === undefined) return fallback;
    const ms = parseGoDuration(text);
    if (ms === undefined) {
      this.problem(key, `must be a Go duration such as 30s, 5m or 1h30m, got "${text}"`);
      return fallback;
    }
    if (ms <= 0) {
      this.problem(key, 'must be more than 0');
      return fallback;
    }
    return ms;
  }

  /** A label selector as written, after checking that it parses. */
  selector(key: string): string | undefined {
    const text = this.optString(key);
    if (text === undefined) return undefined;
    try {
      parseLabelSelector(text);
    } catch (err) {
      this.problem(key, `invalid label selector: ${err instanceof Error ? err.message : err}`);
    }
    return text;
  }
}
