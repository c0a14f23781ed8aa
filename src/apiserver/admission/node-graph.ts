/**
 * What a pod refers to, and so what its node may read (upstream `pkg/api/pod`
 * `VisitPodSecretNames` / `VisitPodConfigmapNames` over all containers, and the Node
 * authorizer's graph `plugin/pkg/auth/authorizer/node/graph_populator.go`): the Node authorizer
 * lets `system:node:<name>` read a Secret, ConfigMap, PersistentVolumeClaim, PersistentVolume
 * or ServiceAccount only while a pod bound to that node references it; NodeRestriction refuses
 * mirror pods that reference any of them.
 *
 * The graph is not kept incrementally here: {@link NodeObjects} answers from the store's current
 * objects (the lead wires it), and {@link nodeReferences} walks the node's pods on each question.
 *
 * @module
 */
import type { Container, EphemeralContainer, Pod, Volume } from '../../api/model/index.js';

/** Kinds of objects the node authorizer subdivides by reference. */
export type NodeReferencedKind =
  | 'secrets'
  | 'configmaps'
  | 'persistentvolumeclaims'
  | 'persistentvolumes'
  | 'serviceaccounts'
  | 'pods';

/** The current objects the node rules read (upstream reads informer caches). */
export interface NodeObjects {
  /** The pods whose `spec.nodeName` is `node`. */
  podsOnNode(node: string): readonly Pod[];
  /** `spec.volumeName` of a PersistentVolumeClaim, undefined when it is absent or unbound. */
  volumeOfClaim(namespace: string, name: string): string | undefined;
}

type AnyContainer = Container | EphemeralContainer;

function containers(pod: Pod): AnyContainer[] {
  const spec = pod.spec;
  return [
    ...(spec?.initContainers ?? []),
    ...(spec?.containers ?? []),
    ...(spec?.ephemeralContainers ?? []),
  ];
}

/** The name of a reference that is present ('' when it names none), undefined when absent. */
function refName(ref: { name?: string } | undefined): string | undefined {
  return ref === undefined ? undefined : (ref.name ?? '');
}

/** Where a volume names a Secret (upstream `VisitPodSecretNames`' volume cases). */
const VOLUME_SECRETS: readonly ((v: Volume) => string | undefined)[] = [
  (v) => v.azureFile?.secretName,
  (v) => refName(v.cephfs?.secretRef),
  (v) => refName(v.cinder?.secretRef),
  (v) => refName(v.flexVolume?.secretRef),
  (v) => refName(v.rbd?.secretRef),
  (v) => (v.secret === undefined ? undefined : (v.secret.secretName ?? '')),
  (v) => refName(v.scaleIO?.secretRef),
  (v) => refName(v.iscsi?.secretRef),
  (v) => refName(v.storageos?.secretRef),
  (v) => refName(v.csi?.nodePublishSecretRef),
];

function defined(values: readonly (string | undefined)[]): string[] {
  return values.filter((v): v is string => v !== undefined);
}

/** Every Secret name a pod refers to (names may repeat). */
export function podSecretNames(pod: Pod): string[] {
  const names = (pod.spec?.imagePullSecrets ?? []).map((r) => r.name ?? '');
  for (const c of containers(pod)) {
    names.push(...defined((c.envFrom ?? []).map((f) => refName(f.secretRef))));
    names.push(...defined((c.env ?? []).map((e) => refName(e.valueFrom?.secretKeyRef))));
  }
  for (const v of pod.spec?.volumes ?? []) {
    names.push(...defined(VOLUME_SECRETS.map((get) => get(v))));
    names.push(...defined((v.projected?.sources ?? []).map((s) => refName(s.secret))));
  }
  return names;
}

/** Every ConfigMap name a pod refers to. */
export function podConfigMapNames(pod: Pod): string[] {
  const names: string[] = [];
  for (const c of containers(pod)) {
    names.push(...defined((c.envFrom ?? []).map((f) => refName(f.configMapRef))));
    names.push(...defined((c.env ?? []).map((e) => refName(e.valueFrom?.configMapKeyRef))));
  }
  for (const v of pod.spec?.volumes ?? []) {
    names.push(...defined([refName(v.configMap)]));
    names.push(...defined((v.projected?.sources ?? []).map((s) => refName(s.configMap))));
  }
  return names;
}

/**
 * Every PersistentVolumeClaim a pod uses: named ones, and generic ephemeral volumes' claims
 * (`<pod>-<volume>`, as the ephemeral volume controller names them).
 */
export function podClaimNames(pod: Pod): string[] {
  const names: string[] = [];
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim) names.push(v.persistentVolumeClaim.claimName);
    if (v.ephemeral) names.push(`${pod.metadata?.name ?? ''}-${v.name}`);
  }
  return names;
}

/**
 * Whether a pod bound to `node` refers to the object: upstream's `hasPathFrom(node, kind,
 * namespace, name)` over the edges pod → node, secret/configmap/serviceaccount/pvc → pod and
 * pv → pvc. Persistent volumes are cluster-scoped (`namespace` ignored).
 */
export function nodeReferences(
  objects: NodeObjects,
  node: string,
  kind: NodeReferencedKind,
  namespace: string,
  name: string,
): boolean {
  for (const pod of objects.podsOnNode(node)) {
    const ns = pod.metadata?.namespace ?? '';
    if (kind === 'persistentvolumes') {
      if (podClaimNames(pod).some((c) => objects.volumeOfClaim(ns, c) === name)) return true;
    } else if (ns === namespace && referencedBy(pod, kind).includes(name)) {
      return true;
    }
  }
  return false;
}

/** The names of `kind` objects in its own namespace a pod refers to. */
function referencedBy(pod: Pod, kind: Exclude<NodeReferencedKind, 'persistentvolumes'>): string[] {
  switch (kind) {
    case 'pods':
      return [pod.metadata?.name ?? ''];
    case 'secrets':
      return podSecretNames(pod);
    case 'configmaps':
      return podConfigMapNames(pod);
    case 'persistentvolumeclaims':
      return podClaimNames(pod);
    case 'serviceaccounts': {
      // Upstream adds the edge only for a named account (admission always names one).
      const account = pod.spec?.serviceAccountName ?? '';
      return account === '' ? [] : [account];
    }
  }
}
