/**
 * Turns OpenAPI v3 component schemas (the shape in `src/api/schema/types.ts`) into TypeScript
 * type aliases, one `export type` per definition, so the API's typed model is generated from
 * the same schemas the server validates with and cannot drift from them.
 *
 * Why type aliases and not interfaces: an interface has no implicit index signature, so a `Pod`
 * interface would not be assignable to `KubeObject` (`[field: string]: unknown`); a type alias
 * of an object type is. A kind's `apiVersion` and `kind` are typed as the literals its
 * `x-kubernetes-group-version-kind` names, which keeps a plain `KubeObject` (`kind?: string`)
 * from being assigned to `Pod` without a check.
 *
 * Mapping: `integer`/`number` → `number`, `string` → `string` (a string literal union only when
 * the schema has an `enum`), `boolean`, arrays → `T[]`, maps → `Record<string, T>`, `oneOf`/
 * `anyOf` → unions, `x-kubernetes-int-or-string` → `number | string`, `nullable` → `| null`, a
 * preserve-unknown-fields value without a type → `unknown`, an object without properties →
 * `{ [key: string]: unknown }` (or `Record<string, never>` when nothing may be kept). A property
 * is optional unless the schema's `required` lists it. Output follows the repository's biome
 * style (100 columns, single quotes), so the generated files need no formatter pass.
 *
 * @module
 */
import { REF_PREFIX, type Schema } from '../../src/api/schema/types.js';

const WIDTH = 100;

export interface EmitContext {
  /** The type name of every definition a `$ref` may name. */
  readonly names: ReadonlyMap<string, string>;
  /** `<definition>.<property>` → TypeScript type text used instead of the derived one. */
  readonly overrides?: Readonly<Record<string, string>>;
}

/** TypeScript's global types a definition must not shadow (apiextensions has a `JSON`). */
const GLOBALS = new Set(
  'Array Boolean Date Error Function JSON Map Number Object Omit Partial Pick Promise Readonly Record RegExp Required Set String Symbol'.split(
    ' ',
  ),
);

/** `io.k8s.api.events.v1.Event` → `EventsV1`; `…pkg.api.resource.Quantity` → `Resource`. */
export function packagePrefix(def: string): string {
  const parts = def.split('.');
  const version = parts.at(-2) ?? '';
  const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  if (/^v\d/.test(version)) return pascal(parts.at(-3) ?? '') + pascal(version);
  return pascal(version);
}

/** Core (`io.k8s.api.core.v1`) first, then apimachinery, then every other package. */
function rank(def: string): number {
  if (def.startsWith('io.k8s.api.core.v1.')) return 0;
  return def.startsWith('io.k8s.apimachinery.') ? 1 : 2;
}

/**
 * Type names: the definition's short name (`Pod`, `ObjectMeta`). When several definitions share
 * one, the best-ranked (core, then apimachinery) keeps it if it is alone at that rank and every
 * other is prefixed with its package (`EventsV1Event`, `DiscoveryV1EndpointPort`); a short name
 * that is a TypeScript global is always prefixed (`ApiextensionsV1JSON`).
 */
export function typeNames(defs: Iterable<string>): Map<string, string> {
  const byShort = new Map<string, string[]>();
  for (const def of defs) {
    const short = def.split('.').at(-1) ?? def;
    byShort.set(short, [...(byShort.get(short) ?? []), def]);
  }
  const names = new Map<string, string>();
  for (const [short, group] of byShort) {
    const best = Math.min(...group.map(rank));
    const keeper = group.filter((d) => rank(d) === best);
    for (const def of group) {
      const keeps = !GLOBALS.has(short) && keeper.length === 1 && keeper[0] === def;
      names.set(def, keeps ? short : packagePrefix(def) + short);
    }
  }
  const taken = new Map<string, string>();
  for (const [def, name] of names) {
    const other = taken.get(name);
    if (other !== undefined) throw new Error(`${def} and ${other} are both named ${name}`);
    taken.set(name, def);
  }
  return names;
}

/** A single-quoted TypeScript string literal (biome's quote style). */
export function literal(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value);
  if (value.includes("'") && !value.includes('"')) return JSON.stringify(value);
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

/** The index of the quote that closes the string literal opening at `start`. */
function literalEnd(type: string, start: number): number {
  let i = start + 1;
  while (i < type.length && type[i] !== type[start]) i += type[i] === '\\' ? 2 : 1;
  return i;
}

const OPENERS = new Set(['<', '{', '(', '[']);
const CLOSERS = new Set(['>', '}', ')', ']']);

/** Splits a type at its top-level `sep` (not inside brackets or string literals). */
function topLevelMembers(type: string, sep = ' | '): string[] {
  const members: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < type.length; i += 1) {
    const c = type[i] ?? '';
    // An enum value may hold brackets or the separator: skip literals whole.
    if (c === "'" || c === '"') i = literalEnd(type, i);
    else if (OPENERS.has(c)) depth += 1;
    else if (CLOSERS.has(c)) depth -= 1;
    else if (depth === 0 && type.startsWith(sep, i)) {
      members.push(type.slice(start, i));
      start = i + sep.length;
    }
  }
  members.push(type.slice(start));
  return members;
}

/** A union or intersection, which needs parentheses inside `T[]` or another operator. */
function isCompound(type: string): boolean {
  return topLevelMembers(type).length > 1 || topLevelMembers(type, ' & ').length > 1;
}

function refName(ref: string, ctx: EmitContext, refs: Set<string>): string {
  const def = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
  const name = ctx.names.get(def);
  if (name === undefined) throw new Error(`no type name for ${ref}`);
  refs.add(def);
  return name;
}

/** The TypeScript type of a schema; `refs` collects the definitions it names. */
export function typeExpression(
  schema: Schema,
  ctx: EmitContext,
  refs: Set<string>,
  indent = '',
): string {
  const base = baseType(schema, ctx, refs, indent);
  return schema.nullable ? `${base} | null` : base;
}

function baseType(s: Schema, ctx: EmitContext, refs: Set<string>, indent: string): string {
  if (s.$ref !== undefined) return refName(s.$ref, ctx, refs);
  const each = (list: readonly Schema[], sep: string) => {
    const types = list.map((m) => typeExpression(m, ctx, refs, indent));
    const unique = [...new Set(types)];
    return unique.map((t) => (unique.length > 1 && isCompound(t) ? `(${t})` : t)).join(sep);
  };
  if (s.allOf && s.allOf.length > 0) return each(s.allOf, ' & ');
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives && alternatives.length > 0) return each(alternatives, ' | ');
  if (s['x-kubernetes-int-or-string']) return 'number | string';
  if (s.enum && s.enum.length > 0) return [...new Set(s.enum.map(literal))].join(' | ');
  switch (s.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const item = s.items ? typeExpression(s.items, ctx, refs, indent) : 'unknown';
      return isCompound(item) ? `(${item})[]` : `${item}[]`;
    }
    case 'object':
      return objectType(s, ctx, refs, indent);
    default:
      return 'unknown';
  }
}

function objectType(s: Schema, ctx: EmitContext, refs: Set<string>, indent: string): string {
  const props = Object.entries(s.properties ?? {});
  if (props.length > 0) {
    const body = propertyLines('', s, ctx, refs, `${indent}  `);
    return `{\n${body.join('\n')}\n${indent}}`;
  }
  const extra = s.additionalProperties;
  if (extra === true) return 'Record<string, unknown>';
  if (extra !== undefined && extra !== false) {
    return `Record<string, ${typeExpression(extra, ctx, refs, indent)}>`;
  }
  return s['x-kubernetes-preserve-unknown-fields']
    ? '{ [key: string]: unknown }'
    : 'Record<string, never>';
}

/** `apiVersion` and `kind` of a served kind: the literals its group-version-kinds name. */
function kindOverrides(s: Schema): Record<string, string> {
  const gvks = s['x-kubernetes-group-version-kind'] ?? [];
  if (gvks.length === 0) return {};
  const versions = gvks.map((g) => (g.group === '' ? g.version : `${g.group}/${g.version}`));
  const union = (values: string[]) => [...new Set(values)].map(literal).join(' | ');
  return { apiVersion: union(versions), kind: union(gvks.map((g) => g.kind)) };
}

/** A description wrapped to the line width, as a JSDoc block (or one line when it fits). */
export function docComment(text: string | undefined, indent: string): string[] {
  if (text === undefined || text.trim() === '') return [];
  const safe = text.trim().replace(/\*\//g, '*\\/');
  const single = `${indent}/** ${safe} */`;
  if (!safe.includes('\n') && single.length <= WIDTH) return [single];
  const room = Math.max(40, WIDTH - indent.length - 3);
  const lines = safe.split('\n').flatMap((line) => wrap(line.trimEnd(), room));
  return [
    `${indent}/**`,
    ...lines.map((l) => (l === '' ? `${indent} *` : `${indent} * ${l}`)),
    `${indent} */`,
  ];
}

/** Breaks a line at spaces so no piece is longer than `room` (a long word stays whole). */
function wrap(line: string, room: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (rest.length > room) {
    const cut = rest.lastIndexOf(' ', room);
    const at = cut > 0 ? cut : rest.indexOf(' ', room);
    if (at <= 0) break;
    out.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at + 1).trimStart();
  }
  out.push(rest);
  return out;
}

function docWithDefault(s: Schema): string | undefined {
  const extra = s.default === undefined ? '' : `@default ${JSON.stringify(s.default)}`;
  const text = [s.description?.trim(), extra].filter((t) => t).join('\n\n');
  return text === '' ? undefined : text;
}

function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name);
}

/** The property lines of an object schema; `def` names it for `overrides` (`''`: inline). */
function propertyLines(
  def: string,
  s: Schema,
  ctx: EmitContext,
  refs: Set<string>,
  indent: string,
): string[] {
  const required = new Set(s.required ?? []);
  const kinds = kindOverrides(s);
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(s.properties ?? {})) {
    const override = ctx.overrides?.[`${def}.${name}`] ?? kinds[name];
    const type = override ?? typeExpression(prop, ctx, refs, indent);
    const head = `${indent}${propertyKey(name)}${required.has(name) ? '' : '?'}:`;
    lines.push(...docComment(docWithDefault(prop), indent));
    const members = topLevelMembers(type);
    if (`${head} ${type};`.length <= WIDTH || members.length === 1 || type.includes('\n')) {
      lines.push(`${head} ${type};`);
    } else {
      // Biome's layout of a union too long for one line: one member per line.
      lines.push(
        head,
        ...members.map((m, i) => `${indent}  | ${m}${i === members.length - 1 ? ';' : ''}`),
      );
    }
  }
  return lines;
}

/** One `export type` for a definition; `refs` collects the definitions it names. */
export function emitDefinition(
  def: string,
  schema: Schema,
  ctx: EmitContext,
  refs: Set<string>,
): string {
  const name = ctx.names.get(def);
  if (name === undefined) throw new Error(`no type name for ${def}`);
  const doc = docComment(schema.description, '');
  const hasProperties = Object.keys(schema.properties ?? {}).length > 0;
  const override = ctx.overrides?.[def];
  let body: string;
  if (override !== undefined) body = `${override};`;
  else if (hasProperties && schema.type === 'object' && !schema.nullable) {
    body = `{\n${propertyLines(def, schema, ctx, refs, '  ').join('\n')}\n};`;
  } else body = `${typeExpression(schema, ctx, refs)};`;
  return [...doc, `export type ${name} = ${body}`].join('\n');
}

/** Biome's order of imported names: case-insensitive (`Ingress` before `IPAddress`), ties by code point. */
function biomeNameOrder(a: string, b: string): number {
  const [la, lb] = [a.toLowerCase(), b.toLowerCase()];
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `import type { A, B } from '…';`, broken over lines as biome does when too long. */
export function importLine(names: readonly string[], from: string): string {
  const sorted = [...names].sort(biomeNameOrder);
  const one = `import type { ${sorted.join(', ')} } from '${from}';`;
  if (one.length <= WIDTH) return one;
  return `import type {\n${sorted.map((n) => `  ${n},`).join('\n')}\n} from '${from}';`;
}

export interface ModuleSpec {
  /** The header comment's text (without comment markers). */
  readonly header: string;
  readonly definitions: readonly (readonly [def: string, schema: Schema])[];
  /** The module (`./meta.generated.js`) that holds a definition outside this one. */
  readonly moduleOf: (def: string) => string;
}

/** A whole generated module: header, imports of the types it names, then each definition. */
export function emitModule(spec: ModuleSpec, ctx: EmitContext): string {
  const own = new Set(spec.definitions.map(([def]) => def));
  const refs = new Set<string>();
  const blocks = spec.definitions.map(([def, schema]) => emitDefinition(def, schema, ctx, refs));
  const byModule = new Map<string, string[]>();
  for (const def of refs) {
    if (own.has(def)) continue;
    const from = spec.moduleOf(def);
    byModule.set(from, [...(byModule.get(from) ?? []), ctx.names.get(def) ?? def]);
  }
  const imports = [...byModule.keys()]
    .sort()
    .map((from) => importLine(byModule.get(from) ?? [], from));
  const header = docComment(spec.header, '');
  const head = imports.length > 0 ? [header.join('\n'), imports.join('\n')] : [header.join('\n')];
  return `${[...head, ...blocks].join('\n\n')}\n`;
}

/**
 * Lifts every object with properties out of a self-contained schema (a CRD's
 * `openAPIV3Schema`) into its own definition, so each gets a name: `names` maps a property path
 * (`spec.storage.endpoint`, `spec.env[]` for list items) to it; an unlisted path is named by
 * the root and the path (`CelldFleetSpecFoo`). The root comes first, then depth-first order.
 */
export function hoistObjects(
  root: string,
  schema: Schema,
  names: Readonly<Record<string, string>>,
): [name: string, schema: Schema][] {
  const out: [string, Schema][] = [];
  const pascal = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const fallback = (path: string) =>
    root + path.replace(/\[\]/g, '.item').split('.').map(pascal).join('');
  const lift = (node: Schema, path: string): Schema => {
    if (node.type === 'array' && node.items) {
      return { ...node, items: lift(node.items, `${path}[]`) };
    }
    if (node.type !== 'object' || Object.keys(node.properties ?? {}).length === 0) return node;
    const name = path === '' ? root : (names[path] ?? fallback(path));
    const slot = out.push([name, node]) - 1;
    const properties = Object.fromEntries(
      Object.entries(node.properties ?? {}).map(([k, v]) => [
        k,
        lift(v, path ? `${path}.${k}` : k),
      ]),
    );
    out[slot] = [name, { ...node, properties }];
    // The property keeps its description and default: they document the field in its parent.
    const ref: Schema = { $ref: REF_PREFIX + name };
    return {
      ...ref,
      ...(node.description === undefined ? {} : { description: node.description }),
      ...(node.default === undefined ? {} : { default: node.default }),
    };
  };
  lift(schema, '');
  return out;
}
