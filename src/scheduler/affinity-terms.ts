/**
 * Pod (anti-)affinity terms compiled for matching (upstream `framework.AffinityTerm`):
 * a label selector over pods, the namespaces it covers and the topology key.
 *
 * Namespaces: the listed `namespaces` plus any whose labels match `namespaceSelector`; with
 * neither, the namespace of the pod that owns the term. A nil `labelSelector` matches no pod;
 * an empty `{}` namespaceSelector matches every namespace. A term whose selector does not
 * parse matches nothing (validation normally rejects such pods).
 *
 * @module
 */
import { LabelSelector, labelSelectorFromObject } from '../api/labels/selector.js';
import type { Pod, PodAffinity, PodAffinityTerm, PodAntiAffinity } from '../api/model/index.js';
import { labelsOf, namespaceOf, podSpecOf } from './pod-view.js';

export interface AffinityTerm {
  readonly selector: LabelSelector;
  readonly namespaces: ReadonlySet<string>;
  readonly namespaceSelector: LabelSelector;
  readonly topologyKey: string;
  /** The preferred-term weight; 1 for required terms. */
  readonly weight: number;
}

function safeSelector(sel: PodAffinityTerm['labelSelector']): LabelSelector {
  try {
    return labelSelectorFromObject(sel);
  } catch {
    return LabelSelector.nothing();
  }
}

export function compileTerm(
  term: PodAffinityTerm,
  ownerNamespace: string,
  weight = 1,
): AffinityTerm {
  const listed = term.namespaces ?? [];
  const namespaces =
    listed.length === 0 && (term.namespaceSelector === null || term.namespaceSelector === undefined)
      ? new Set([ownerNamespace])
      : new Set(listed);
  return {
    selector: safeSelector(term.labelSelector),
    namespaces,
    namespaceSelector: safeSelector(term.namespaceSelector),
    topologyKey: term.topologyKey,
    weight,
  };
}

/** Upstream `AffinityTerm.Matches`: namespace covered and labels selected. */
export function termMatchesPod(
  term: AffinityTerm,
  pod: Pod,
  namespaceLabels: (ns: string) => Readonly<Record<string, string>>,
): boolean {
  const ns = namespaceOf(pod);
  const nsOk = term.namespaces.has(ns) || term.namespaceSelector.matches(namespaceLabels(ns));
  return nsOk && term.selector.matches(labelsOf(pod));
}

export interface PodAffinityTerms {
  readonly requiredAffinity: readonly AffinityTerm[];
  readonly requiredAntiAffinity: readonly AffinityTerm[];
  readonly preferredAffinity: readonly AffinityTerm[];
  readonly preferredAntiAffinity: readonly AffinityTerm[];
}

type PodAffinityRules = PodAffinity | PodAntiAffinity;

function required(rules: PodAffinityRules | undefined, ns: string): AffinityTerm[] {
  return (rules?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) =>
    compileTerm(t, ns),
  );
}

function preferred(rules: PodAffinityRules | undefined, ns: string): AffinityTerm[] {
  return (rules?.preferredDuringSchedulingIgnoredDuringExecution ?? [])
    .filter((w) => w.weight !== 0)
    .map((w) => compileTerm(w.podAffinityTerm, ns, w.weight));
}

/**
 * Compiled terms per pod object: informer objects are frozen and reused across scheduling
 * cycles, so each pod's selectors are compiled once, as upstream caches them in `PodInfo`.
 */
const compiled = new WeakMap<Pod, PodAffinityTerms>();

/** All four term lists of a pod (upstream `PodInfo`'s cached terms). */
export function podAffinityTerms(pod: Pod): PodAffinityTerms {
  const cached = Object.isFrozen(pod) ? compiled.get(pod) : undefined;
  if (cached !== undefined) return cached;
  const affinity = podSpecOf(pod).affinity;
  const ns = namespaceOf(pod);
  const terms = {
    requiredAffinity: required(affinity?.podAffinity, ns),
    requiredAntiAffinity: required(affinity?.podAntiAffinity, ns),
    preferredAffinity: preferred(affinity?.podAffinity, ns),
    preferredAntiAffinity: preferred(affinity?.podAntiAffinity, ns),
  };
  if (Object.isFrozen(pod)) compiled.set(pod, terms);
  return terms;
}

/** True when the pod has any pod affinity or anti-affinity rule (upstream `PodsWithAffinity`). */
export function hasPodAffinity(pod: Pod): boolean {
  const a = podSpecOf(pod).affinity;
  return (a?.podAffinity ?? null) !== null || (a?.podAntiAffinity ?? null) !== null;
}

/** True when the pod has required anti-affinity terms. */
export function hasRequiredAntiAffinity(pod: Pod): boolean {
  const rules = podSpecOf(pod).affinity?.podAntiAffinity;
  return (rules?.requiredDuringSchedulingIgnoredDuringExecution ?? []).length > 0;
}

/** Key for a topology pair in count maps. */
export function pairKey(key: string, value: string): string {
  return JSON.stringify([key, value]);
}
