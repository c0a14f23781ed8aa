/**
 * Server-side printing: a list of objects (or one object) as a `meta.k8s.io/v1` Table, the
 * response kubectl asks for with `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`.
 *
 * Like upstream's `TableConvertor`s on the server, rows always carry every column (wide ones
 * included; kubectl hides priority ≥ 1 columns unless `-o wide`), and each row's `object` is
 * shaped by `includeObject` (upstream `transformObject`/`asTable` in the apiserver handlers).
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { meta } from './access.js';
import {
  type CustomResourcePrinter,
  customResourcePrinter,
  customResourceScaleColumns,
} from './custom-resource.js';
import { builtinPrinter, SCALE_PRINTER } from './registry.js';
import type { IncludeObject, KindPrinter, Table, TableMetadata, TableRow } from './types.js';

export interface TableOptions {
  /** The time ages are computed against. */
  readonly now: Date;
  /** The `includeObject` query parameter; `Metadata` (PartialObjectMetadata) by default. */
  readonly includeObject?: IncludeObject;
  /** The list's resourceVersion (for a single GET, the object's). */
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
  /** `false` leaves the headers out (`columnDefinitions: null`), as upstream's `NoHeaders`. Default true. */
  readonly columnDefinitions?: boolean;
}

const crdPrinters = new WeakMap<object, CustomResourcePrinter>();

/**
 * The printer for a resource: its CRD version's printer columns, a built-in kind's printer,
 * or the default table (Name, Created At), e.g. for CustomResourceDefinitions themselves.
 */
export function printerFor(def: ResourceDefinition): KindPrinter {
  const cr = def.customResource;
  if (cr === undefined) return builtinPrinter(def.group, def.kind);
  return crdPrinter(cr);
}

/** A CRD version's printer, built once per version. */
function crdPrinter(cr: NonNullable<ResourceDefinition['customResource']>): CustomResourcePrinter {
  let p = crdPrinters.get(cr);
  if (p === undefined) {
    p = customResourcePrinter(cr.printerColumns);
    crdPrinters.set(cr, p);
  }
  return p;
}

/**
 * The error upstream logs when a CRD version's printer columns do not parse (the Table then
 * stops at the bad column), e.g. `unrecognized column definition ".spec["`; else `undefined`.
 */
export function printerColumnsError(def: ResourceDefinition): string | undefined {
  return def.customResource === undefined ? undefined : crdPrinter(def.customResource).error;
}

const PARTIAL_KIND = 'PartialObjectMetadata';
const META_API_VERSION = 'meta.k8s.io/v1';

function rowObject(o: KubeObject, includeObject: IncludeObject): unknown {
  switch (includeObject) {
    case 'None':
      return null;
    case 'Object':
      return o;
    default:
      return { kind: PARTIAL_KIND, apiVersion: META_API_VERSION, metadata: meta(o) };
  }
}

function tableMetadata(opts: TableOptions): TableMetadata {
  const m: { resourceVersion?: string; continue?: string; remainingItemCount?: number } = {};
  if (opts.resourceVersion !== undefined && opts.resourceVersion !== '')
    m.resourceVersion = opts.resourceVersion;
  if (opts.continue !== undefined && opts.continue !== '') m.continue = opts.continue;
  if (opts.remainingItemCount !== undefined) m.remainingItemCount = opts.remainingItemCount;
  return m;
}

/** Renders `objects` with `printer` into a Table. */
export function renderTable(
  printer: KindPrinter,
  objects: readonly KubeObject[],
  opts: TableOptions,
): Table {
  const includeObject = opts.includeObject ?? 'Metadata';
  const rows: TableRow[] = new Array(objects.length);
  let i = 0;
  for (const o of objects) {
    const printed = printer.row(o, opts.now);
    const object = rowObject(o, includeObject);
    rows[i++] =
      printed.conditions === undefined
        ? { cells: printed.cells, object }
        : { cells: printed.cells, conditions: printed.conditions, object };
  }
  return {
    kind: 'Table',
    apiVersion: META_API_VERSION,
    metadata: tableMetadata(opts),
    columnDefinitions: opts.columnDefinitions === false ? null : printer.columns,
    rows,
  };
}

/** A Table of `objects` of the resource `def` (a list, or a single object as a one-row list). */
export function tableFor(
  def: ResourceDefinition,
  objects: readonly KubeObject[],
  opts: TableOptions,
): Table {
  return renderTable(printerFor(def), objects, opts);
}

/**
 * A Table of a `/scale` subresource (autoscaling/v1 Scale): upstream `printScale` for
 * built-in kinds; for custom resources Desired/Available (when the CRD's scale paths are
 * set) and Age.
 */
export function scaleTableFor(
  def: ResourceDefinition,
  scale: KubeObject,
  opts: TableOptions,
): Table {
  const printer =
    def.customResource === undefined
      ? SCALE_PRINTER
      : customResourcePrinter(customResourceScaleColumns(def));
  return renderTable(printer, [scale], opts);
}
