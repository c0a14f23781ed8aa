/**
 * The node label rules of NodeRestriction (upstream `getForbiddenLabels` and
 * `k8s.io/kubelet/pkg/apis.IsKubeletLabel`) and the JSON comparisons it needs in Go's
 * `apiequality.Semantic.DeepEqual` sense (an absent slice or map equals an empty one).
 *
 * @module
 */

/** Labels a kubelet may set on its own Node (`kubeletapis.kubeletLabels`). */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);
/** Label namespaces a kubelet may use, with their subdomains (`kubeletLabelNamespaces`). */
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];
/** `v1.LabelNamespaceNodeRestriction`: reserved for labels kubelets must not set. */
const NODE_RESTRICTION_NAMESPACE = 'node-restriction.kubernetes.io';

function labelNamespace(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inNamespace(ns: string, domain: string): boolean {
  return ns === domain || ns.endsWith(`.${domain}`);
}

export function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.has(key)) return true;
  const ns = labelNamespace(key);
  return KUBELET_LABEL_NAMESPACES.some((d) => inNamespace(ns, d));
}

function isKubernetesLabel(key: string): boolean {
  const ns = labelNamespace(key);
  return inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
}

/** Keys added, removed or changed between two label maps. */
export function modifiedLabels(
  a: Readonly<Record<string, string>> | null | undefined,
  b: Readonly<Record<string, string>> | null | undefined,
): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(a ?? {})) if (b?.[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(b ?? {})) if (a?.[k] !== v) out.add(k);
  return [...out];
}

/**
 * Of `modified`, those a kubelet may not set: any under `node-restriction.kubernetes.io/`, and
 * any other `kubernetes.io`/`k8s.io` label that is not a kubelet label. Sorted (Go's
 * `sets.String.List`).
 */
export function forbiddenLabels(modified: readonly string[]): string[] {
  const out = modified.filter(
    (k) =>
      inNamespace(labelNamespace(k), NODE_RESTRICTION_NAMESPACE) ||
      (isKubernetesLabel(k) && !isKubeletLabel(k)),
  );
  return [...new Set(out)].sort();
}

/** Deep equality of JSON values where an absent, `[]` or `{}` value are the same (Go nil/empty). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!jsonEqual(a[k], b[k])) return false;
    return true;
  }
  return a === b;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isRecord(v) && Object.keys(v).length === 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A copy of `obj` without the dotted `paths` (for comparing what else changed). */
export function withoutFields(obj: object, paths: readonly string[]): unknown {
  const copy: unknown = structuredClone(obj);
  for (const path of paths) {
    const parts = path.split('.');
    let at: unknown = copy;
    for (const part of parts.slice(0, -1)) at = isRecord(at) ? at[part] : undefined;
    if (isRecord(at)) delete at[parts[parts.length - 1] ?? ''];
  }
  return copy;
}
