/**
 * Field selectors (`fieldSelector` query parameter), as upstream's
 * `k8s.io/apimachinery/pkg/fields` parses, prints and matches them: comma-separated
 * `field=value`, `field==value` and `field!=value` terms, ANDed, with `\,`, `\=` and `\\`
 * escapes in values. Fields are not escaped: the first operator in a term splits it.
 *
 * Which fields a resource supports is the caller's business; {@link checkFieldSelectorFields}
 * and the message builders give the upstream 400 texts for unsupported ones.
 *
 * @module
 */

/** `=` and `==` are the same requirement upstream; both are reported (and printed) as `=`. */
export type FieldOperator = '=' | '!=';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: FieldOperator;
  /** The unescaped value. */
  readonly value: string;
}

/** Thrown for an unparsable field selector; the message is upstream's text. */
export class FieldSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieldSelectorParseError';
  }
}

/** An AND of field requirements, in upstream's order (terms sorted by their raw text). */
export class FieldSelector {
  readonly requirements: readonly FieldRequirement[];

  constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = Object.freeze([...requirements]);
  }

  /**
   * True when every requirement holds. A field missing from `fields` reads as `""`, as upstream's
   * `fields.Set.Get` does, so `f!=x` matches objects without `f` and `f=` matches them too.
   */
  matches(fields: Readonly<Record<string, string>>): boolean {
    return this.requirements.every((r) => {
      const actual = Object.hasOwn(fields, r.field) ? (fields[r.field] ?? '') : '';
      return r.operator === '=' ? actual === r.value : actual !== r.value;
    });
  }

  /** True when the selector does not restrict anything. */
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  /** Upstream `RequiresExactMatch`: the value an `=` requirement on `field` pins, if any. */
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /** Upstream `String()`: `f=v,g!=w` with values escaped again. */
  toString(): string {
    return this.requirements
      .map((r) => `${r.field}${r.operator}${escapeFieldSelectorValue(r.value)}`)
      .join(',');
  }
}

/** Upstream `fields.EscapeValue`: backslash first, then `,` and `=`. */
export function escapeFieldSelectorValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * Upstream `fields.UnescapeValue`. Its error texts are kept verbatim, including printing the
 * offending unescaped character as its code point number (Go's `%v` of a rune).
 */
export function unescapeFieldSelectorValue(value: string): string {
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new FieldSelectorParseError(
          `invalid field selector: invalid escape sequence: \\${c}`,
        );
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',' || c === '=') {
      throw new FieldSelectorParseError(
        `invalid field selector: unescaped character in value: ${c.codePointAt(0)}`,
      );
    } else {
      out += c;
    }
  }
  if (inSlash)
    throw new FieldSelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not escaped; escapes stay in the terms. */
function splitTerms(text: string): string[] {
  if (text.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inSlash) {
      inSlash = false;
    } else if (c === '\\') {
      inSlash = true;
    } else if (c === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

/** Checked at each position in this order, so `a==b` is `==` and not `=` with value `=b`. */
const TERM_OPERATORS = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i))
        return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** Go's byte-wise string order (UTF-8 order equals code point order, not UTF-16 order). */
export function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done === true || y.done === true) return x.done === y.done ? 0 : x.done === true ? -1 : 1;
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

/**
 * Parses a field selector (`fields.ParseSelector`). Empty terms are skipped; a term whose field
 * and value are both empty (`=`) selects everything, as upstream's transform step drops it.
 *
 * @throws {FieldSelectorParseError} e.g. `invalid selector: 'a'; can't understand 'a'`.
 */
export function parseFieldSelector(text: string): FieldSelector {
  const parts = splitTerms(text).sort(compareCodePoints);
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined) {
      throw new FieldSelectorParseError(`invalid selector: '${text}'; can't understand '${part}'`);
    }
    const value = unescapeFieldSelectorValue(split.rhs);
    if (split.lhs === '' && value === '') continue;
    requirements.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value });
  }
  return new FieldSelector(requirements);
}

/**
 * The first field (in the selector's order, which is the order upstream checks them in) that
 * is not in `allowed`, or `undefined` when all are supported.
 */
export function checkFieldSelectorFields(
  sel: FieldSelector,
  allowed: readonly string[],
): string | undefined {
  return sel.requirements.find((r) => !allowed.includes(r.field))?.field;
}

/**
 * Upstream `runtime.DefaultMetaV1FieldSelectorConversion` text, used for kinds without their
 * own field-label conversion (most built-ins, e.g. deployments):
 * `"foo" is not a known field selector: only "metadata.name", "metadata.namespace"`.
 */
export function unknownFieldSelectorMessage(field: string): string {
  return `${JSON.stringify(field)} is not a known field selector: only "metadata.name", "metadata.namespace"`;
}

/**
 * The text of kinds that register their own field-label conversion (pods, events, nodes,
 * secrets, namespaces, … in `pkg/apis/core/v1/conversion.go`) and of custom resources
 * (apiextensions-apiserver's `crConverter`): `field label not supported: foo`.
 */
export function fieldLabelNotSupportedMessage(field: string): string {
  return `field label not supported: ${field}`;
}
