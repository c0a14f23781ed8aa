/**
 * CustomResourceDefinitions for the API server, as the {@link ApiExtensions} it is given
 * (`ApiServerConfig.extensions`): the served CRD kind, and the controller that turns CRDs into
 * served resources.
 *
 * The validation, schema and CEL tools (`tools.ts`, with the CEL library about 270 KiB of code)
 * load on first use, per instance: `prepare()` loads them, the router awaits it before any
 * request for a CRD or a custom resource, and the controller before it serves a CRD, so the
 * strategies' synchronous hooks always find them loaded.
 *
 * @module
 */
import { CRD_GROUP } from '../api/crd-types.js';
import type { ResourceDefinition } from '../api/resource.js';
import { formatTime } from '../api/time.js';
import type {
  ApiExtensions,
  ApiExtensionsFactory,
  ApiExtensionsHost,
} from '../apiserver/extensions.js';
import { CrdController } from './crd-controller.js';
import { type CrdChecks, crdResource } from './crd-kind.js';
import type { SchemaTools } from './custom-resource.js';

export { CRD_CLEANUP_FINALIZER, CRD_GROUP } from '../api/crd-types.js';

/** What `tools.ts` exports: the heavy half, loaded by `prepare()`. */
interface Tools {
  readonly crdChecks: CrdChecks;
  readonly customResourceSchemaTools: SchemaTools;
}

/** CRDs and custom resources, for `new ApiServer({ extensions: apiExtensions() })`. */
export function apiExtensions(): ApiExtensionsFactory {
  return (host) => new CustomResourceExtensions(host);
}

class CustomResourceExtensions implements ApiExtensions {
  readonly resources: readonly ResourceDefinition[];
  readonly #crds: CrdController;
  #loading: Promise<void> | undefined;
  #tools: Tools | undefined;

  constructor(host: ApiExtensionsHost) {
    const crdDefinition = crdResource(this.#checks(), () => formatTime(host.clock.now()));
    this.resources = [crdDefinition];
    this.#crds = new CrdController({
      store: host.store,
      registry: host.registry,
      crdDefinition,
      clock: host.clock,
      tools: this.#schemaTools(),
      loadTools: () => this.prepare(),
      onError: (crd, e) => host.onError?.(`customresourcedefinition ${crd}: sync failed`, e),
    });
  }

  /** The CRD kind itself and every custom resource run the tools in their hooks. */
  needsPreparation(def: ResourceDefinition): boolean {
    return (
      def.customResource !== undefined ||
      (def.group === CRD_GROUP && def.plural === 'customresourcedefinitions')
    );
  }

  prepare(): Promise<void> {
    this.#loading ??= import('./tools.js').then(
      (tools) => {
        this.#tools = tools;
      },
      (e: unknown) => {
        // Not kept: the next request (or the controller's next sync) tries again.
        this.#loading = undefined;
        throw e;
      },
    );
    return this.#loading;
  }

  start(): Promise<void> {
    return this.#crds.start();
  }

  stop(): void {
    this.#crds.stop();
  }

  /** The tools for hooks that run only after {@link prepare} resolved (see the module doc). */
  #loaded(): Tools {
    if (this.#tools === undefined) throw new Error('CRD tools used before prepare() resolved');
    return this.#tools;
  }

  #checks(): CrdChecks {
    return {
      defaults: (crd) => this.#loaded().crdChecks.defaults(crd),
      validate: (crd) => this.#loaded().crdChecks.validate(crd),
      validateUpdate: (crd, old) => this.#loaded().crdChecks.validateUpdate(crd, old),
    };
  }

  #schemaTools(): SchemaTools {
    return {
      validate: (obj, schema) => this.#loaded().customResourceSchemaTools.validate(obj, schema),
      prune: (obj, schema) => this.#loaded().customResourceSchemaTools.prune(obj, schema),
      applyDefaults: (obj, schema) =>
        this.#loaded().customResourceSchemaTools.applyDefaults(obj, schema),
      compileRules: (schema) => this.#loaded().customResourceSchemaTools.compileRules(schema),
    };
  }
}
