/**
 * Property names as CEL field names, as upstream `k8s.io/apiserver/pkg/cel` `Escape`/`Unescape`:
 * a property `x-y` is read as `self.x__dash__y`, `namespace` as `self.__namespace__`. Names that
 * cannot be escaped (a leading digit, characters outside `[a-zA-Z0-9_./-]`) are not visible to
 * rules at all.
 *
 * @module
 */

/** The CEL lexer's reserved words: a property named like one is escaped to `__word__`. */
const RESERVED = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

const SIMPLE_IDENT = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const ESCAPABLE = /^[a-zA-Z0-9_./-]*$/;
const EXPAND = /__|[-./]/g;
const EXPANSIONS: Record<string, string> = {
  __: '__underscores__',
  '.': '__dot__',
  '-': '__dash__',
  '/': '__slash__',
};

/** The CEL field name of property `name`, or `undefined` when rules cannot see it. */
export function escapeProperty(name: string): string | undefined {
  if (name.length === 0 || /^[0-9]/.test(name)) return undefined;
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  if (SIMPLE_IDENT.test(name) && !name.includes('__')) return name;
  return name.replace(EXPAND, (m) => EXPANSIONS[m] ?? m);
}

const UNEXPAND = /__[^_]+__/g;
const UNEXPANSIONS: Record<string, string> = {
  underscores: '__',
  dot: '.',
  dash: '-',
  slash: '/',
};

/** The property name behind an escaped CEL field name, or `undefined` for a bad escape. */
export function unescapeProperty(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(UNEXPAND, (m) => {
    const inner = m.slice(2, -2);
    const plain = UNEXPANSIONS[inner];
    if (plain !== undefined) return plain;
    if (RESERVED.has(inner)) {
      if (m.length !== escaped.length) ok = false;
      return inner;
    }
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}
