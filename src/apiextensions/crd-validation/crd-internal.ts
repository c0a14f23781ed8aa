/**
 * The internal form upstream validates a v1 CRD in (`apiextensions/v1/conversion.go`
 * `Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec`).
 * It matters for error paths: when every version has the same schema, subresources or printer
 * columns, they are hoisted to `spec.validation`, `spec.subresources` and
 * `spec.additionalPrinterColumns` — so a single-version CRD's schema errors read
 * `spec.validation.openAPIV3Schema.properties[spec].type: Required value: …`, exactly as a real
 * API server reports them. The webhook conversion settings move to
 * `spec.conversion.webhookClientConfig` / `spec.conversion.conversionReviewVersions`.
 *
 * @module
 */
import { deepEqual, isJsonObject, type JsonObject } from '../../api/object.js';

export interface InternalVersion {
  readonly index: number;
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated: boolean;
  readonly deprecationWarning: unknown;
  /** `{openAPIV3Schema}`; undefined when absent or hoisted. */
  readonly schema: JsonObject | undefined;
  readonly subresources: JsonObject | undefined;
  readonly columns: unknown[];
  readonly selectableFields: unknown[];
  /** The version's effective schema, hoisted or not (for selectable fields). */
  readonly effectiveSchema: JsonObject | undefined;
}

export interface InternalSpec {
  readonly group: string;
  readonly names: JsonObject;
  readonly scope: string;
  readonly versions: InternalVersion[];
  /** `spec.version`: the first version's name. */
  readonly version: string;
  readonly validation: JsonObject | undefined;
  readonly subresources: JsonObject | undefined;
  readonly columns: unknown[];
  readonly conversion: JsonObject | undefined;
  readonly preserveUnknownFields: boolean;
}

export function obj(v: unknown): JsonObject {
  return isJsonObject(v) ? v : {};
}

export function text(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Upstream's semantic equality: an empty list equals an absent one. */
function same(a: unknown, b: unknown): boolean {
  const norm = (x: unknown): unknown =>
    Array.isArray(x) && x.length === 0 ? undefined : (x ?? undefined);
  return deepEqual(norm(a), norm(b));
}

function allSame(values: unknown[]): boolean {
  return values.every((v) => same(v, values[0]));
}

function conversionOf(v: unknown): JsonObject | undefined {
  if (!isJsonObject(v)) return undefined;
  const out: JsonObject = { strategy: v.strategy };
  const webhook = v.webhook;
  if (isJsonObject(webhook)) {
    if (webhook.conversionReviewVersions !== undefined) {
      out.conversionReviewVersions = webhook.conversionReviewVersions;
    }
    if (webhook.clientConfig !== undefined) out.webhookClientConfig = webhook.clientConfig;
  }
  return out;
}

/** The internal spec of a v1 CRD object's `spec`. */
export function toInternal(specJson: unknown): InternalSpec {
  const spec = obj(specJson);
  const raw = list(spec.versions).map(obj);
  const schemas = raw.map((v) => (isJsonObject(v.schema) ? v.schema : undefined));
  const subresources = raw.map((v) => (isJsonObject(v.subresources) ? v.subresources : undefined));
  const columns = raw.map((v) => list(v.additionalPrinterColumns));
  const hoist = raw.length > 0;
  const hoistSchema = hoist && allSame(schemas);
  const hoistSub = hoist && allSame(subresources);
  const hoistColumns = hoist && allSame(columns);
  const versions = raw.map(
    (v, i): InternalVersion => ({
      index: i,
      name: text(v.name),
      served: v.served === true,
      storage: v.storage === true,
      deprecated: v.deprecated === true,
      deprecationWarning: v.deprecationWarning,
      schema: hoistSchema ? undefined : schemas[i],
      subresources: hoistSub ? undefined : subresources[i],
      columns: hoistColumns ? [] : (columns[i] ?? []),
      selectableFields: list(v.selectableFields),
      effectiveSchema: schemas[i],
    }),
  );
  return {
    group: text(spec.group),
    names: obj(spec.names),
    scope: text(spec.scope),
    versions,
    version: versions[0]?.name ?? '',
    validation: hoistSchema ? schemas[0] : undefined,
    subresources: hoistSub ? subresources[0] : undefined,
    columns: hoistColumns ? (columns[0] ?? []) : [],
    conversion: conversionOf(spec.conversion),
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
}

/** The subresources that apply to a version (per-version when any version has its own). */
export function subresourcesFor(spec: InternalSpec, v: InternalVersion): JsonObject | undefined {
  const perVersion = spec.versions.some((x) => x.subresources !== undefined);
  return perVersion ? v.subresources : spec.subresources;
}

export function hasStatus(sub: JsonObject | undefined): boolean {
  return sub !== undefined && sub.status !== undefined && sub.status !== null;
}
