/**
 * The schema a request's object is checked against: a built-in kind's generated component,
 * or a custom resource's CRD schema with `apiVersion`, `kind` and `metadata` declared the way
 * upstream's CRD OpenAPI builder adds them (so `metadata` is checked as a full ObjectMeta).
 * Both use the built-in components' navigator, loaded on first use.
 *
 * @module
 */
import type { ResourceDefinition } from '../../api/resource.js';
import { loadBuiltinSchemas } from '../../api/schema/builtin/index.js';
import type { SchemaNavigator } from '../../api/schema/navigator.js';
import { REF_PREFIX, type Schema } from '../../api/schema/types.js';

export interface KindSchema {
  /** Undefined: nothing is known about the kind's fields (everything is accepted). */
  readonly schema: Schema | undefined;
  readonly nav: SchemaNavigator;
}

const OBJECT_META = `${REF_PREFIX}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`;
const customSchemas = new WeakMap<object, Schema | undefined>();

/** What picks a kind's schema: its group, version and kind, and a CRD's schema when it is one. */
export type KindRef = Pick<ResourceDefinition, 'group' | 'version' | 'kind' | 'customResource'>;

export async function kindSchema(def: KindRef): Promise<KindSchema> {
  const builtin = await loadBuiltinSchemas();
  if (def.customResource === undefined) {
    return {
      schema: builtin.schemaFor({ group: def.group, version: def.version, kind: def.kind }),
      nav: builtin.navigator,
    };
  }
  if (!customSchemas.has(def)) customSchemas.set(def, withObjectFields(def.customResource.schema));
  return { schema: customSchemas.get(def), nav: builtin.navigator };
}

function withObjectFields(schema: Schema | undefined): Schema | undefined {
  if (schema === undefined) return undefined;
  return {
    ...schema,
    properties: {
      ...schema.properties,
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { $ref: OBJECT_META },
    },
  };
}
