/**
 * Generates the typed API model under `src/api/model/`: one `<group>.generated.ts` per API
 * group from the built-in component schemas (`src/api/schema/builtin/components.generated.json`),
 * `kinds.generated.ts` (each served kind's type and identity) and `celld.generated.ts` from the
 * celld schemas (`src/operator/api/fleet-schema.ts`, `reservation.ts`). `scripts/gen-builtin-
 * schemas.ts` runs this after writing the JSON, so one command regenerates everything:
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts   # schemas and types
 *     node --import tsx scripts/gen-api-types.ts         # types only, from the committed JSON
 *
 * The schemas do not say everything the code relies on, so a few facts are added here, to the
 * types only (the JSON is untouched): which ObjectMeta fields arrive as `null`, the values of
 * `ManagedFieldsEntry.operation`, that a Quantity is read as a string, and which int64 field the
 * code handles as a bigint. `src/api/model/generated-fresh.test.ts` fails when a committed file
 * differs from `modelFiles()`.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REF_PREFIX, type Schema, type SchemaComponents } from '../src/api/schema/types.js';
import { celldFleetSchema } from '../src/operator/api/fleet-schema.js';
import { celldStorageReservationSchema } from '../src/operator/api/reservation.js';
import { CELLD_GROUP, CELLD_VERSION } from '../src/operator/api/types.js';
import {
  docComment,
  type EmitContext,
  emitModule,
  hoistObjects,
  importLine,
  literal,
  typeNames,
} from './lib/emit-types.js';

const MODEL = new URL('../src/api/model/', import.meta.url);
const COMPONENTS = new URL('../src/api/schema/builtin/components.generated.json', import.meta.url);

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const EXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/**
 * ObjectMeta fields that arrive as JSON `null`: Go writes a zero `metav1.Time` as `null`
 * (`creationTimestamp: null` in every Pod template), and clients send `null` for nil maps and
 * slices. `src/api/object.ts` has always typed them so.
 */
const NULLABLE: Readonly<Record<string, readonly string[]>> = {
  [`${META}.ObjectMeta`]: [
    'annotations',
    'creationTimestamp',
    'deletionGracePeriodSeconds',
    'deletionTimestamp',
    'finalizers',
    'labels',
    'managedFields',
    'ownerReferences',
  ],
};

/** Enums upstream states in prose only ("The only valid values … are 'Apply' and 'Update'"). */
const ENUMS: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>> = {
  [`${META}.ManagedFieldsEntry`]: { operation: ['Apply', 'Update'] },
};

/**
 * Types the schemas cannot express. A Quantity is `string | number` on input, but Go writes it
 * as a string, the server canonicalises it to one when defaulting (`defaultResourceList`), and
 * the code reads strings. An int64 beyond 2^53 is a `bigint` (docs/adr/0012-int64-numbers.md);
 * only fields the code handles as one say so.
 */
const OVERRIDES: Readonly<Record<string, string>> = {
  [QUANTITY]: 'string',
  // apiextensions' union types, which client-node (and so the schemas) erase to opaque JSON.
  [`${EXT}.JSONSchemaPropsOrArray`]: 'JSONSchemaProps | JSONSchemaProps[]',
  [`${EXT}.JSONSchemaPropsOrBool`]: 'JSONSchemaProps | boolean',
  [`${EXT}.JSONSchemaPropsOrStringArray`]: 'JSONSchemaProps | string[]',
  'io.k8s.api.apps.v1.ControllerRevision.revision': 'number | bigint',
};

const RULES = `Naming: each definition keeps its upstream short name (Pod, PodSpec, ObjectMeta). When two
share one, the core/v1 definition (else the apimachinery one) keeps it and the other is prefixed
with its group and version (events.k8s.io/v1 Event → EventsV1Event, discovery.k8s.io/v1
EndpointPort → DiscoveryV1EndpointPort); a name TypeScript already has is prefixed too
(apiextensions JSON → ApiextensionsV1JSON).

Types: a property is optional unless upstream requires it; null is admitted only where
ObjectMeta receives it. int32/int64 → number: int64 values beyond 2^53 arrive as bigint
(docs/adr/0012-int64-numbers.md), and only ControllerRevision.revision, the one the code does
bigint arithmetic on, is typed number | bigint. Quantity, Time and MicroTime → string;
IntOrString → number | string; opaque JSON (RawExtension, FieldsV1) → { [key: string]: unknown }.
A kind's apiVersion and kind are its literals, so a KubeObject needs isKind/asKind
(src/api/model/index.ts) to become one.`;

function header(what: string, source: string): string {
  return `${what}

GENERATED from ${source} by scripts/gen-api-types.ts: do not edit. Regenerate the schemas and every src/api/model/*.generated.ts with

    node --import tsx scripts/gen-builtin-schemas.ts

or only the types (from the committed JSON and the celld schemas) with

    node --import tsx scripts/gen-api-types.ts

src/api/model/generated-fresh.test.ts fails when this file differs from the generator's output.

${RULES}

@module`;
}

/** The model file of a definition: `meta` for apimachinery, else the API group's first label. */
export function fileOf(def: string): string {
  if (def.startsWith('io.k8s.apimachinery.')) return 'meta';
  return def.split('.').at(-3) ?? 'core';
}

/** The component schemas with this file's additions applied, for type emission only. */
function typedComponents(components: SchemaComponents): Record<string, Schema> {
  const out: Record<string, Schema> = { ...components };
  const patch = (def: string, prop: string, edit: (s: Schema) => Schema) => {
    const schema = out[def];
    const before = schema?.properties?.[prop];
    if (!schema || !before) throw new Error(`type addition names missing ${def}.${prop}`);
    out[def] = { ...schema, properties: { ...schema.properties, [prop]: edit(before) } };
  };
  for (const [def, props] of Object.entries(NULLABLE)) {
    for (const prop of props) patch(def, prop, (s) => ({ ...s, nullable: true }));
  }
  for (const [def, props] of Object.entries(ENUMS)) {
    for (const [prop, values] of Object.entries(props))
      patch(def, prop, (s) => ({ ...s, enum: values }));
  }
  return out;
}

interface KindEntry {
  readonly name: string;
  readonly kind: string;
  readonly apiVersions: readonly string[];
}

function kindEntries(
  defs: Iterable<[string, Schema]>,
  names: ReadonlyMap<string, string>,
): KindEntry[] {
  const out: KindEntry[] = [];
  for (const [def, schema] of defs) {
    const gvks = schema['x-kubernetes-group-version-kind'] ?? [];
    const [first] = gvks;
    if (!first) continue;
    const apiVersions = gvks.map((g) => (g.group === '' ? g.version : `${g.group}/${g.version}`));
    out.push({ name: names.get(def) ?? def, kind: first.kind, apiVersions });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** `export type <X>Kinds = {…}` and `export const <X>_KINDS = {…} as const` for `kinds`. */
function kindTables(prefix: string, kinds: readonly KindEntry[]): string {
  const types = kinds.map((k) => `  ${k.name}: ${k.name};`);
  const values = kinds.flatMap((k) => {
    const versions = `[${k.apiVersions.map(literal).join(', ')}]`;
    const line = `  ${k.name}: { kind: ${literal(k.kind)}, apiVersions: ${versions} },`;
    if (line.length <= 100) return [line];
    // Biome's layout: the object broken first, then the list if it still does not fit.
    const list = `    apiVersions: ${versions},`;
    const versionLines =
      list.length <= 100
        ? [list]
        : ['    apiVersions: [', ...k.apiVersions.map((v) => `      ${literal(v)},`), '    ],'];
    return [`  ${k.name}: {`, `    kind: ${literal(k.kind)},`, ...versionLines, '  },'];
  });
  const pascal = prefix.charAt(0) + prefix.slice(1).toLowerCase();
  return [
    `/** Each kind's type, by type name: what \`isKind\` and \`asKind\` narrow to. */\nexport type ${pascal}Kinds = {\n${types.join('\n')}\n};`,
    `/** Each kind's \`kind\` and the \`apiVersion\`s it is served at, by type name. */\nexport const ${prefix}_KINDS = {\n${values.join('\n')}\n} as const;`,
  ].join('\n\n');
}

/** The built-in model files (`core.generated.ts` … `kinds.generated.ts`), by file name. */
export function builtinModelFiles(components: SchemaComponents): Map<string, string> {
  const typed = typedComponents(components);
  const names = typeNames(Object.keys(typed));
  const ctx: EmitContext = { names, overrides: OVERRIDES };
  const byFile = new Map<string, [string, Schema][]>();
  for (const def of Object.keys(typed).sort()) {
    const schema = typed[def];
    if (schema) byFile.set(fileOf(def), [...(byFile.get(fileOf(def)) ?? []), [def, schema]]);
  }
  const files = new Map<string, string>();
  const moduleOf = (def: string) => `./${fileOf(def)}.generated.js`;
  const source = 'src/api/schema/builtin/components.generated.json';
  for (const [file, definitions] of [...byFile].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const what =
      file === 'meta'
        ? 'Types of apimachinery: meta/v1 (ObjectMeta, Status…), Quantity, IntOrString, RawExtension.'
        : `Types of the ${file === 'core' ? 'core (v1)' : file} API group.`;
    const text = emitModule({ header: header(what, source), definitions, moduleOf }, ctx);
    files.set(`${file}.generated.ts`, text);
  }
  const kinds = kindEntries(Object.entries(typed), names);
  const defOf = new Map([...names].map(([def, name]) => [name, def]));
  const importsByFile = new Map<string, string[]>();
  for (const k of kinds) {
    const from = moduleOf(defOf.get(k.name) ?? '');
    importsByFile.set(from, [...(importsByFile.get(from) ?? []), k.name]);
  }
  const imports = [...importsByFile.keys()]
    .sort()
    .map((f) => importLine(importsByFile.get(f) ?? [], f));
  const what =
    "Every built-in kind the server serves (and its List kind): each one's type and identity.";
  const head = docComment(header(what, source), '').join('\n');
  files.set(
    'kinds.generated.ts',
    `${[head, imports.join('\n'), kindTables('BUILTIN', kinds)].join('\n\n')}\n`,
  );
  return files;
}

/** Type names of the celld schemas' nested objects, by property path (`[]`: list items). */
const CELLD_NAMES: Readonly<Record<string, string>> = {
  spec: 'CelldFleetSpec',
  'spec.maintenance': 'CelldMaintenanceSpec',
  'spec.storage': 'CelldStorageSpec',
  'spec.storage.endpoint': 'CelldStorageEndpoint',
  'spec.placement': 'CelldPlacementSpec',
  'spec.execution': 'CelldExecutionSpec',
  'spec.lifecycle': 'CelldLifecycleSpec',
  'spec.env[]': 'CelldEnvVar',
  'spec.env[].secretKeyRef': 'CelldSecretKeySelector',
  status: 'CelldFleetStatus',
  'status.conditions[]': 'CelldCondition',
  'status.members[]': 'CelldFleetMemberStatus',
};

const CELLD_RESERVATION_NAMES: Readonly<Record<string, string>> = {
  spec: 'CelldStorageReservationSpec',
};

/** A CRD root as a served kind: its group-version-kind, and `metadata` as ObjectMeta. */
function asKindRoot(schema: Record<string, unknown>, kind: string): Schema {
  const root = schema as Schema;
  const gvk = [{ group: CELLD_GROUP, version: CELLD_VERSION, kind }];
  const metadata = { $ref: `${REF_PREFIX}${META}.ObjectMeta` };
  return {
    ...root,
    properties: { ...root.properties, metadata },
    'x-kubernetes-group-version-kind': gvk,
  };
}

/** `celld.generated.ts`: the celld API from the schemas its CRDs are built from. */
export function celldModelFile(components: SchemaComponents): string {
  const definitions = [
    ...hoistObjects('CelldFleet', asKindRoot(celldFleetSchema(), 'CelldFleet'), CELLD_NAMES),
    ...hoistObjects(
      'CelldStorageReservation',
      asKindRoot(celldStorageReservationSchema(), 'CelldStorageReservation'),
      CELLD_RESERVATION_NAMES,
    ),
  ];
  const names = new Map(typeNames(Object.keys(components)));
  for (const [name] of definitions) {
    if ([...names.values()].includes(name))
      throw new Error(`celld type ${name} is a built-in name`);
    names.set(name, name);
  }
  const what = `The celld API (${CELLD_GROUP}/${CELLD_VERSION}), from the schemas its CRDs are built from.`;
  const source = 'src/operator/api/fleet-schema.ts and reservation.ts';
  const text = emitModule(
    {
      header: header(what, source),
      definitions,
      moduleOf: (def) => `./${fileOf(def)}.generated.js`,
    },
    { names },
  );
  const kinds = kindEntries(definitions, names);
  return `${text}\n${kindTables('CELLD', kinds)}\n`;
}

/** Every generated model file, by file name. */
export function modelFiles(components: SchemaComponents): Map<string, string> {
  const files = builtinModelFiles(components);
  files.set('celld.generated.ts', celldModelFile(components));
  return files;
}

export function readComponents(): SchemaComponents {
  return JSON.parse(readFileSync(COMPONENTS, 'utf8')) as SchemaComponents;
}

/** Writes every model file, then has biome confirm they need no formatting (else it throws). */
export function writeModelFiles(components: SchemaComponents): void {
  const paths: string[] = [];
  for (const [file, text] of modelFiles(components)) {
    const url = new URL(file, MODEL);
    writeFileSync(url, text);
    paths.push(fileURLToPath(url));
  }
  const biome = fileURLToPath(new URL('../node_modules/.bin/biome', import.meta.url));
  execFileSync(biome, ['check', ...paths], { stdio: 'inherit' });
  console.log(`wrote ${paths.length} model files to src/api/model/`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeModelFiles(readComponents());
}
