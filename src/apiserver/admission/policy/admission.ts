/**
 * ValidatingAdmissionPolicy as the API server's admission step: reads policies, bindings,
 * params and namespaces synchronously from the server's store through {@link PolicyStoreReader},
 * keeps compiled programs per policy uid and resourceVersion, and gives each request an
 * `ExternalAdmission`-compatible `validate(next, current)` that throws the denial (a
 * StatusError) and leaves the request's warnings (to send as `Warning: 299` headers with
 * `sendWarnings`) and audit annotations on the request object.
 *
 * @module
 */

import { asKind, type KindName, type Kinds, type ParamKind } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Authorizer } from '../../authorization/types.js';
import { PolicyCompiler } from './compiled-policy.js';
import { evaluatePolicies } from './evaluator.js';
import type {
  EquivalentResource,
  GroupVersionKind,
  GroupVersionResource,
  Operation,
  ParamSource,
  PolicyInputs,
  PolicyOutcome,
  PolicyRequest,
} from './types.js';

const GROUP = 'admissionregistration.k8s.io';

/** Synchronous reads of the server's store (the lead wires it to the store's cache). */
export interface PolicyStoreReader {
  /** Every object of a resource (`namespace` undefined: all namespaces). */
  list(group: string, resource: string, namespace?: string): readonly KubeObject[];
  get(
    group: string,
    resource: string,
    namespace: string | undefined,
    name: string,
  ): KubeObject | undefined;
  /** The served resource of `apiVersion`/`kind`, or undefined when none serves it. */
  resourceFor(
    apiVersion: string,
    kind: string,
  ):
    | { readonly group: string; readonly resource: string; readonly namespaced: boolean }
    | undefined;
  /** Other served versions of a resource, for `matchPolicy: Equivalent` (optional). */
  equivalentResources?(
    resource: GroupVersionResource,
    subResource: string,
  ): readonly EquivalentResource[];
}

export interface PolicyAdmissionOptions {
  readonly store: PolicyStoreReader;
  /** Answers `authorizer` checks in expressions. */
  readonly authorizer?: Authorizer;
}

/** What the handler knows about a request before the store calls admission. */
export interface PolicyRequestAttributes {
  /** Inferred from `validate`'s arguments when absent (CONNECT must be given). */
  readonly operation?: Operation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly userInfo: UserInfo;
  readonly dryRun?: boolean;
  readonly options?: KubeObject | null;
  readonly uid?: string;
}

/** One request's admission: `validate` for the store, then its warnings and annotations. */
export class PolicyRequestAdmission {
  readonly #plugin: ValidatingAdmissionPolicyAdmission;
  readonly #attrs: PolicyRequestAttributes;
  #outcome: PolicyOutcome = { warnings: [], auditAnnotations: {} };

  constructor(plugin: ValidatingAdmissionPolicyAdmission, attrs: PolicyRequestAttributes) {
    this.#plugin = plugin;
    this.#attrs = attrs;
  }

  /** `ExternalAdmission.validate`: throws the denial. A retried update replaces the outcome. */
  validate = async (
    next: KubeObject | undefined,
    current: KubeObject | undefined,
  ): Promise<void> => {
    const a = this.#attrs;
    const operation: Operation =
      a.operation ?? (next === undefined ? 'DELETE' : current === undefined ? 'CREATE' : 'UPDATE');
    const request: PolicyRequest = {
      ...a,
      operation,
      name: a.name || next?.metadata?.name || current?.metadata?.name || '',
      object: next ?? null,
      oldObject: current ?? null,
    };
    this.#outcome = this.#plugin.evaluate(request);
    if (this.#outcome.denied) throw this.#outcome.denied;
  };

  /** Texts for `Warning: 299 - "…"` headers (`sendWarnings` in handlers/strict-decoding.ts). */
  get warnings(): readonly string[] {
    return this.#outcome.warnings;
  }

  /** Annotations for the request's audit event. */
  get auditAnnotations(): Readonly<Record<string, string>> {
    return this.#outcome.auditAnnotations;
  }
}

function typed<K extends KindName>(objs: readonly KubeObject[], kind: K): Kinds[K][] {
  const out: Kinds[K][] = [];
  for (const o of objs) {
    try {
      out.push(asKind(o, kind));
    } catch {
      // Not this kind: nothing a policy could use.
    }
  }
  return out;
}

/** The ValidatingAdmissionPolicy admission plugin. */
export class ValidatingAdmissionPolicyAdmission {
  readonly #store: PolicyStoreReader;
  readonly #authorizer?: Authorizer;
  readonly #compiler = new PolicyCompiler();

  constructor(options: PolicyAdmissionOptions) {
    this.#store = options.store;
    this.#authorizer = options.authorizer;
  }

  /** The admission of one request, to pass as `WriteOptions.admit` (merged with others). */
  forRequest(attrs: PolicyRequestAttributes): PolicyRequestAdmission {
    return new PolicyRequestAdmission(this, attrs);
  }

  /** Evaluates every policy on `request` against the store's current contents. */
  evaluate(request: PolicyRequest): PolicyOutcome {
    return evaluatePolicies(this.#inputs(), request, this.#compiler);
  }

  /** How many compiled policies are cached (for tests). */
  get compiledPolicies(): number {
    return this.#compiler.size;
  }

  #inputs(): PolicyInputs {
    const store = this.#store;
    return {
      policies: typed(
        store.list(GROUP, 'validatingadmissionpolicies'),
        'ValidatingAdmissionPolicy',
      ),
      bindings: typed(
        store.list(GROUP, 'validatingadmissionpolicybindings'),
        'ValidatingAdmissionPolicyBinding',
      ),
      params: (pk: ParamKind): ParamSource | undefined => {
        const r = store.resourceFor(pk.apiVersion ?? '', pk.kind ?? '');
        if (!r) return undefined;
        return { namespaced: r.namespaced, list: (ns) => store.list(r.group, r.resource, ns) };
      },
      namespace: (name) => store.get('', 'namespaces', undefined, name),
      authorizer: this.#authorizer,
      equivalentResources: store.equivalentResources?.bind(store),
    };
  }
}
