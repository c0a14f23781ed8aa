/**
 * CustomResourceDefinitions for the API server: the served CRD kind and the controller that
 * turns CRDs into served resources, wired to the pure schema, pruning, defaulting and CEL
 * modules.
 *
 * @module
 */
import type { FieldPath } from '../api/field-error.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { Schema } from '../api/schema/types.js';
import type { ResourceRegistry } from '../apiserver/registry.js';
import { formatTime } from '../apiserver/store/metadata.js';
import type { ObjectStore } from '../apiserver/store/object-store.js';
import type { Clock } from '../util/clock.js';
import { compileSchemaValidations, validateWithCel } from './cel/index.js';
import { CrdController } from './crd-controller.js';
import { crdResource } from './crd-kind.js';
import {
  type CrdValidationHooks,
  defaultCrd,
  validateCrd,
  validateCrdUpdate,
} from './crd-validation/index.js';
import type { SchemaTools } from './custom-resource.js';
import { applyDefaults } from './schema/defaults.js';
import { pruneInPlace } from './schema/prune.js';
import { validateCustomObject } from './schema/validate-object.js';

export { CrdController } from './crd-controller.js';
export { CRD_CLEANUP_FINALIZER, CRD_GROUP } from './crd-types.js';

/** CEL checks of a CRD's own schema: compile errors and rules against defaults. */
const celHooks: CrdValidationHooks = {
  compileRules: (schema: Schema, path: FieldPath) =>
    compileSchemaValidations(schema, { basePath: path.toString() }).errors,
  validateRulesOnDefault: (schema: Schema, value: unknown, path: FieldPath) => {
    const basePath = path.toString();
    const { compiled } = compileSchemaValidations(schema, { basePath });
    return validateWithCel(compiled, value, undefined, { basePath });
  },
};

/** How custom resources are pruned, defaulted and validated (schema keywords, then CEL rules). */
export const customResourceSchemaTools: SchemaTools = {
  validate: (obj, schema) => validateCustomObject(obj, schema),
  prune: (obj, schema) => pruneInPlace(obj, schema),
  applyDefaults: (obj, schema) => {
    applyDefaults(obj, schema);
  },
  compileRules(schema) {
    const { compiled } = compileSchemaValidations(schema);
    // No rules, no CEL validator (upstream's celValidator is nil): nothing to report as unchecked.
    if (compiled.root === undefined) return undefined;
    return { validate: (obj, old) => validateWithCel(compiled, obj, old) };
  },
};

/** The CustomResourceDefinition kind, served by every fleetyard API server. */
export function customResourceDefinitionResource(clock: Pick<Clock, 'now'>): ResourceDefinition {
  return crdResource(
    {
      defaults: (crd) => {
        defaultCrd(crd);
      },
      validate: (crd) => validateCrd(crd, celHooks),
      validateUpdate: (crd, old) => validateCrdUpdate(crd, old, celHooks),
    },
    () => formatTime(clock.now()),
  );
}

export interface ApiExtensionsOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly crdDefinition: ResourceDefinition;
  readonly clock: Clock;
  readonly onError?: (crd: string, error: unknown) => void;
}

export function createCrdController(options: ApiExtensionsOptions): CrdController {
  return new CrdController({ ...options, tools: customResourceSchemaTools });
}
