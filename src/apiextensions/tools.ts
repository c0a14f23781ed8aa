/**
 * The heavy half of CRD support, loaded on first use (see `index.ts`): validation and
 * defaulting of CRDs, and the schema, pruning, defaulting and CEL tools of custom resources
 * (with the CEL library, about 270 KiB of code no start without CRDs needs).
 *
 * @module
 */

import { compileSchemaValidations, validateWithCel } from '../api/cel/index.js';
import type { FieldPath } from '../api/field-error.js';
import type { Schema } from '../api/schema/types.js';
import type { CrdChecks } from './crd-kind.js';
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

export const crdChecks: CrdChecks = {
  defaults: (crd) => {
    defaultCrd(crd);
  },
  validate: (crd) => validateCrd(crd, celHooks),
  validateUpdate: (crd, old) => validateCrdUpdate(crd, old, celHooks),
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
