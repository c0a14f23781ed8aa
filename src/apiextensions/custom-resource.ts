/**
 * The resources a CustomResourceDefinition serves: one {@link ResourceDefinition} per served
 * version, named by the CRD's accepted names, with a strategy that prunes unknown fields,
 * applies schema defaults, validates against the version's schema and runs its CEL rules
 * (upstream `customresource` registry strategy in apiextensions-apiserver).
 *
 * The schema tools are injected ({@link SchemaTools}) so this file stays about wiring and the
 * tools stay pure and separately tested.
 *
 * @module
 */

import type { CrdNames, CrdVersion, CustomResourceDefinition } from '../api/crd-types.js';
import type { FieldError } from '../api/field-error.js';
import { type KubeObject, valueAtPath } from '../api/object.js';
import type { KindStrategy, ResourceDefinition, ScaleSpec } from '../api/resource.js';
import type { Schema } from '../api/schema/types.js';

/** Compiled `x-kubernetes-validations` of one version's schema. */
export interface CompiledRules {
  readonly validate: (obj: unknown, old: unknown) => FieldError[];
}

/** What the custom-resource strategy needs from the schema and CEL modules. */
export interface SchemaTools {
  validate(obj: KubeObject, schema: Schema): FieldError[];
  /** Drops fields the schema does not declare; returns their paths (`spec.foo`). */
  prune(obj: KubeObject, schema: Schema): string[];
  applyDefaults(obj: KubeObject, schema: Schema): void;
  compileRules(schema: Schema): CompiledRules | undefined;
}

/** The definitions to serve for `crd` under its accepted names (empty until names are accepted). */
export function customResourceDefinitions(
  crd: CustomResourceDefinition,
  tools: SchemaTools,
): ResourceDefinition[] {
  const spec = crd.spec ?? {};
  const names = crd.status?.acceptedNames;
  if (!names?.plural || !names.kind || !spec.group) return [];
  return (spec.versions ?? [])
    .filter((v) => v.served && v.name)
    .map((v) => versionDefinition(crd, names, v, tools));
}

function versionDefinition(
  crd: CustomResourceDefinition,
  names: CrdNames,
  version: CrdVersion,
  tools: SchemaTools,
): ResourceDefinition {
  const spec = crd.spec ?? {};
  const schema = version.schema?.openAPIV3Schema;
  const hasStatus = version.subresources?.status !== undefined;
  const scale = scaleSpec(version);
  const selectable = (version.selectableFields ?? [])
    .map((f) => f.jsonPath ?? '')
    .filter((p) => p !== '');
  return {
    group: spec.group ?? '',
    version: version.name ?? '',
    kind: names.kind ?? '',
    listKind: names.listKind ?? `${names.kind}List`,
    plural: names.plural ?? '',
    singular: names.singular || (names.kind ?? '').toLowerCase(),
    namespaced: spec.scope !== 'Cluster',
    ...(names.shortNames?.length ? { shortNames: names.shortNames } : {}),
    ...(names.categories?.length ? { categories: names.categories } : {}),
    nameValidation: 'dns-subdomain',
    // Upstream: with a status subresource, status writes never bump generation.
    generation: hasStatus ? 'spec' : 'all-but-metadata',
    statusSubresource: hasStatus,
    ...(scale ? { scale } : {}),
    strategy: customResourceStrategy(schema, selectable, tools),
    customResource: {
      crdName: crd.metadata?.name ?? '',
      schema,
      printerColumns: version.additionalPrinterColumns ?? [],
      selectableFields: selectable,
      ...(crd.metadata?.deletionTimestamp ? { terminating: true } : {}),
    },
  };
}

function scaleSpec(version: CrdVersion): ScaleSpec | undefined {
  const s = version.subresources?.scale;
  if (!s?.specReplicasPath || !s.statusReplicasPath) return undefined;
  return {
    specReplicasPath: s.specReplicasPath,
    statusReplicasPath: s.statusReplicasPath,
    ...(s.labelSelectorPath ? { labelSelectorPath: s.labelSelectorPath } : {}),
  };
}

function customResourceStrategy(
  schema: Schema | undefined,
  selectable: readonly string[],
  tools: SchemaTools,
): KindStrategy {
  // Compiled once per definition: a CRD update builds new definitions.
  const rules = schema ? tools.compileRules(schema) : undefined;
  const strategy: KindStrategy = {
    selectableFields: (obj) => selectableValues(obj, selectable),
  };
  if (!schema) return strategy;
  // Upstream validates schema, embedded resources and list invariants, then runs the CEL rules
  // unless a type or unsupported-value error makes them meaningless: all causes in one 422.
  const validate = (obj: KubeObject, old: KubeObject | undefined): FieldError[] => {
    const errors = tools.validate(obj, schema);
    if (rules === undefined) return errors;
    if (errors.some(isBlocking)) return [...errors, RULES_NOT_CHECKED];
    return [...errors, ...rules.validate(obj, old)];
  };
  return {
    ...strategy,
    defaults(obj) {
      tools.prune(obj, schema);
      tools.applyDefaults(obj, schema);
    },
    validateCreate: (obj) => validate(obj, undefined),
    validateUpdate: (obj, old) => validate(obj, old),
    validateStatusUpdate: (obj, old) => validate(obj, old),
  };
}

/** Upstream `hasBlockingErr`: errors after which CEL rules would read values of the wrong type. */
function isBlocking(e: FieldError): boolean {
  return e.type === 'FieldValueTypeInvalid' || e.type === 'FieldValueNotSupported';
}

const RULES_NOT_CHECKED: FieldError = {
  type: 'FieldValueInvalid',
  field: '<nil>',
  badValue: 'null',
  detail:
    'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
};

/** Field-selector values of `selectableFields` (`.spec.color` → `spec.color`). */
function selectableValues(obj: KubeObject, paths: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of paths) {
    const key = p.replace(/^\./, '');
    const cur = valueAtPath(obj, key);
    if (cur !== undefined && cur !== null && typeof cur !== 'object') out[key] = String(cur);
  }
  return out;
}
