/**
 * The params a binding evaluates its policy with, after upstream `generic.CollectParams`: none
 * needed (`[null]`) when the policy has no paramKind or the binding no paramRef; by name or by
 * label selector otherwise, in the paramRef's namespace or else the request's (a namespaced
 * paramKind cannot serve a cluster-scoped request without one); nothing found is an error under
 * `parameterNotFoundAction: Deny` and no evaluation at all under `Allow`.
 *
 * @module
 */
import { path } from '../../../api/field-error.js';
import { readSelector, toLabelSelector } from '../../../api/kinds/common.js';
import type { ParamKind, ParamRef } from '../../../api/model/index.js';
import type { KubeObject } from '../../../api/object.js';
import type { ParamSource } from './types.js';

export type ParamsResult =
  | { readonly params: readonly (KubeObject | null)[]; readonly error?: undefined }
  | { readonly error: string; readonly params?: undefined };

export const NO_PARAMS_DENY =
  'no params found for policy binding with `Deny` parameterNotFoundAction';

/** Go's `GroupVersionKind.String()` of a paramKind: `group/version, Kind=kind`. */
export function paramKindText(pk: ParamKind): string {
  const apiVersion = pk.apiVersion ?? '';
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  return `${gv}, Kind=${pk.kind ?? ''}`;
}

function labelsOf(o: KubeObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.metadata?.labels ?? {}))
    if (typeof v === 'string') out[k] = v;
  return out;
}

function select(ref: ParamRef, candidates: readonly KubeObject[]): KubeObject[] | string {
  const name = ref.name ?? '';
  if (name !== '') return candidates.filter((o) => o.metadata?.name === name);
  if (ref.selector === undefined || ref.selector === null) return [];
  const { sel, errs } = readSelector(ref.selector, path('selector'));
  const selector = sel ? toLabelSelector(sel) : undefined;
  if (!selector) return errs[0]?.detail || 'invalid label selector';
  return candidates.filter((o) => selector.matches(labelsOf(o)));
}

/** Upstream `CollectParams`. */
export function collectParams(
  paramKind: ParamKind | undefined,
  source: ParamSource | undefined,
  ref: ParamRef | undefined,
  requestNamespace: string,
): ParamsResult {
  if (!paramKind || !ref) return { params: [null] };
  if (!source)
    return {
      error: `failed to find resource referenced by paramKind: '${paramKindText(paramKind)}'`,
    };
  let namespace: string | undefined;
  if (source.namespaced) {
    namespace = ref.namespace || requestNamespace;
    if (namespace === '') {
      return {
        error:
          'cannot use namespaced paramRef in policy binding that matches cluster-scoped resources',
      };
    }
  }
  const found = select(ref, source.list(namespace));
  if (typeof found === 'string') return { error: found };
  // parameterNotFoundAction defaults to Deny.
  if (found.length === 0 && (ref.parameterNotFoundAction ?? 'Deny') === 'Deny') {
    return { error: NO_PARAMS_DENY };
  }
  // Params carry their kind, as upstream fills an empty GVK from the paramKind.
  const params = found.map((p) =>
    p.apiVersion && p.kind ? p : { ...p, apiVersion: paramKind.apiVersion, kind: paramKind.kind },
  );
  return { params };
}
