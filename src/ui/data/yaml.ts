/**
 * JSON → YAML for the object view, the way `kubectl get -o yaml` reads: block mappings and
 * sequences, two-space indent, strings quoted (JSON style, which YAML accepts) only when
 * plain would read as something else, multi-line strings as `|` blocks. A dozen lines instead
 * of a YAML library keeps the bundle small; `yaml.test.ts` checks the output parses back to
 * the same value.
 *
 * @module
 */

type Value = unknown;

/** Plain scalars YAML 1.1/1.2 would read as non-strings or that need quoting. */
const RESERVED =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|\.inf|\.Inf|\.INF|-\.inf|\.nan|\.NaN)$/;
const NUMBERISH =
  /^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?\d+(?::\d+)+$/;
const SAFE = /^[A-Za-z0-9_./][A-Za-z0-9 _./=+@()-]*$/;

export function scalar(s: string): string {
  if (
    s === '' ||
    RESERVED.test(s) ||
    NUMBERISH.test(s) ||
    !SAFE.test(s) ||
    s.endsWith(' ') ||
    /:\s|\s#/.test(s)
  ) {
    return JSON.stringify(s);
  }
  return s;
}

function key(k: string): string {
  return scalar(k);
}

function isPlainObject(v: Value): v is Record<string, Value> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function leaf(v: Value): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'string') return scalar(v);
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isPlainObject(v) && Object.keys(v).length === 0) return '{}';
  return undefined;
}

/** A multi-line string as a `|` block (with `|-` when it has no final newline), if it can be one. */
function block(v: Value, indent: string): string | undefined {
  if (typeof v !== 'string' || !v.includes('\n') || /[^\S\n]\n|[\r\t]|^\s/.test(v))
    return undefined;
  const chomp = v.endsWith('\n') ? (v.endsWith('\n\n') ? undefined : '|') : '|-';
  if (chomp === undefined) return undefined;
  const body = (v.endsWith('\n') ? v.slice(0, -1) : v)
    .split('\n')
    .map((line) => (line === '' ? '' : indent + line))
    .join('\n');
  return `${chomp}\n${body}`;
}

/** A value that fits after `- ` or `key: ` on the same line (a scalar, `[]`, `{}` or a `|` block). */
function inline(v: Value, indent: string): string | undefined {
  return leaf(v) ?? block(v, `${indent}  `);
}

function emitSequence(items: readonly Value[], indent: string, out: string[]): void {
  for (const item of items) {
    const one = inline(item, indent);
    if (one !== undefined) {
      out.push(`${indent}- ${one}`);
      continue;
    }
    const sub: string[] = [];
    emit(item, `${indent}  `, sub);
    // The first line of a nested block rides on the dash: `- name: x`.
    const first = sub[0] ?? '';
    out.push(`${indent}- ${first.slice(indent.length + 2)}`, ...sub.slice(1));
  }
}

function emitMapping(map: Record<string, Value>, indent: string, out: string[]): void {
  for (const [k, item] of Object.entries(map)) {
    if (item === undefined) continue;
    const one = inline(item, indent);
    if (one !== undefined) {
      out.push(`${indent}${key(k)}: ${one}`);
      continue;
    }
    out.push(`${indent}${key(k)}:`);
    // kubectl's style: a sequence under a key is not indented further.
    emit(item, Array.isArray(item) ? indent : `${indent}  `, out);
  }
}

function emit(v: Value, indent: string, out: string[]): void {
  if (Array.isArray(v)) emitSequence(v, indent, out);
  else if (isPlainObject(v)) emitMapping(v, indent, out);
  else out.push(indent + (leaf(v) ?? 'null'));
}

export function toYaml(value: Value): string {
  const l = leaf(value);
  if (l !== undefined) return `${l}\n`;
  const out: string[] = [];
  emit(value, '', out);
  return `${out.join('\n')}\n`;
}
