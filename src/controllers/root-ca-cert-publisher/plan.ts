/**
 * What the root CA publisher keeps in one namespace (upstream
 * `pkg/controller/certificates/rootcacertpublisher`, `Publisher.syncNamespace`): the
 * ConfigMap `kube-root-ca.crt` whose `ca.crt` is the cluster's CA bundle, so a pod can verify
 * the API server at `kubernetes.default.svc`. Created when missing; its `data` replaced when
 * it is anything else than exactly `{ca.crt}`; its description annotation set when empty
 * (another value is left, as upstream only checks that one is there). Nothing in a namespace
 * that is gone or not `Active`.
 *
 * @module
 */
import { deepEqualJson } from '../../api/kinds/json.js';
import type { ConfigMap, Namespace } from '../../api/model/index.js';
import { deepCopy } from '../../api/object.js';
import { isActiveNamespace } from '../serviceaccount/plan.js';

export const ROOT_CA_CONFIG_MAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
/** Upstream's text, word for word. */
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

export interface ConfigMapWrite {
  readonly action: 'create' | 'update';
  readonly object: ConfigMap;
}

/** The write that makes `current` (the namespace's `kube-root-ca.crt`, if any) right. */
export function planRootCAConfigMap(
  namespace: Namespace | undefined,
  current: ConfigMap | undefined,
  rootCA: string,
): ConfigMapWrite | undefined {
  if (!isActiveNamespace(namespace)) return undefined;
  const data = { 'ca.crt': rootCA };
  if (current === undefined) {
    return {
      action: 'create',
      object: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIG_MAP,
          namespace: namespace?.metadata?.name ?? '',
          annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
        },
        data,
      },
    };
  }
  const annotations = current.metadata?.annotations ?? {};
  if (
    deepEqualJson(current.data ?? null, data) &&
    (annotations[DESCRIPTION_ANNOTATION] ?? '') !== ''
  ) {
    return undefined;
  }
  const next = deepCopy(current);
  next.data = data;
  next.metadata = {
    ...next.metadata,
    annotations: { ...annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION },
  };
  return { action: 'update', object: next };
}
