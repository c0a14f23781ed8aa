/**
 * CustomResourceDefinitions for the API server: the served CRD kind and the controller that
 * turns CRDs into served resources. The validation, schema and CEL tools (`tools.ts`) load on
 * first use: {@link loadApiExtensionsTools} is awaited by the router before any request for a
 * CRD or a custom resource, and by the controller before it serves a CRD, so the strategies'
 * synchronous hooks always find them loaded.
 *
 * @module
 */
import type { ResourceDefinition } from '../api/resource.js';
import { formatTime } from '../api/time.js';
import type { ResourceRegistry } from '../apiserver/registry.js';
import type { ObjectStore } from '../apiserver/store/object-store.js';
import type { Clock } from '../util/clock.js';
import { CrdController } from './crd-controller.js';
import { type CrdChecks, crdResource } from './crd-kind.js';
import type { SchemaTools } from './custom-resource.js';

export { CrdController } from './crd-controller.js';
export { CRD_CLEANUP_FINALIZER, CRD_GROUP } from './crd-types.js';

interface Tools {
  readonly crdChecks: CrdChecks;
  readonly customResourceSchemaTools: SchemaTools;
}

let loading: Promise<Tools> | undefined;
let loaded: Tools | undefined;

/** Loads the CRD tools once; later calls share the promise. */
export function loadApiExtensionsTools(): Promise<Tools> {
  loading ??= import('./tools.js').then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

function tools(): Tools {
  if (loaded === undefined) throw new Error('CRD tools used before loadApiExtensionsTools()');
  return loaded;
}

/** The CRD tools for hooks that run after {@link loadApiExtensionsTools} resolved. */
const lazyChecks: CrdChecks = {
  defaults: (crd) => tools().crdChecks.defaults(crd),
  validate: (crd) => tools().crdChecks.validate(crd),
  validateUpdate: (crd, old) => tools().crdChecks.validateUpdate(crd, old),
};

const lazySchemaTools: SchemaTools = {
  validate: (obj, schema) => tools().customResourceSchemaTools.validate(obj, schema),
  prune: (obj, schema) => tools().customResourceSchemaTools.prune(obj, schema),
  applyDefaults: (obj, schema) => tools().customResourceSchemaTools.applyDefaults(obj, schema),
  compileRules: (schema) => tools().customResourceSchemaTools.compileRules(schema),
};

/** The CustomResourceDefinition kind, served by every fleetyard API server. */
export function customResourceDefinitionResource(clock: Pick<Clock, 'now'>): ResourceDefinition {
  return crdResource(lazyChecks, () => formatTime(clock.now()));
}

/** Whether serving `def` needs the CRD tools: the CRD kind itself and every custom resource. */
export function needsApiExtensionsTools(def: ResourceDefinition): boolean {
  return def.customResource !== undefined || def.plural === 'customresourcedefinitions';
}

export interface ApiExtensionsOptions {
  readonly store: ObjectStore;
  readonly registry: ResourceRegistry;
  readonly crdDefinition: ResourceDefinition;
  readonly clock: Clock;
  readonly onError?: (crd: string, error: unknown) => void;
}

export function createCrdController(options: ApiExtensionsOptions): CrdController {
  return new CrdController({
    ...options,
    tools: lazySchemaTools,
    loadTools: loadApiExtensionsTools,
  });
}
