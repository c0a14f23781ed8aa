/**
 * What the OpenAPI documents are built from: the resource registry (built-in kinds and
 * CustomResourceDefinitions) and the built-in component schemas, loaded once and shared with
 * strategic merge patch, server-side apply and field validation.
 *
 * @module
 */
import type { GroupVersionKind, Schema, SchemaComponents } from '../../api/schema/types.js';
import type { ResourceRegistry } from '../registry.js';

/**
 * The part of `loadBuiltinSchemas()` (`src/api/schema/builtin/index.ts`) the documents read:
 * the component set and the component name of each built-in kind. The loader's full result
 * (which also has a navigator and `schemaFor`) is assignable to this.
 */
export interface BuiltinSchemaSet {
  /** Components by upstream name, e.g. `io.k8s.api.apps.v1.Deployment`. */
  readonly components: SchemaComponents;
  /** The component name of a built-in kind (or list kind); undefined when there is none. */
  nameOf(gvk: GroupVersionKind): string | undefined;
}

export type LoadBuiltinSchemas = () => Promise<BuiltinSchemaSet>;

/** Dependencies of {@link createOpenApiService}. */
export interface OpenApiDeps {
  readonly registry: ResourceRegistry;
  /** Called once, on the first OpenAPI request (the schemas are not needed before). */
  readonly loadBuiltinSchemas: LoadBuiltinSchemas;
  /** Wall clock for `Last-Modified` and `Expires`. @default () => new Date() */
  readonly now?: () => Date;
}

/** A JSON object as the documents are assembled (plain data, serialised once). */
export type JsonObject = Record<string, unknown>;

export type { GroupVersionKind, Schema };
