/**
 * Building a pod from a workload's pod template (upstream `controller_utils.go:
 * GetPodFromTemplate`, `getPodsPrefix`, `RealPodControl.createPods`;
 * docs/design/controller-machinery.md §4).
 *
 * @module
 */
import type { PodTemplateSpec } from '../api/model/index.js';
import type { KubeObject, ObjectMeta, OwnerReference } from '../api/object.js';
import { deepCopy, isJsonObject } from '../api/object.js';
import { nameIsDNSSubdomain } from '../api/validation/names.js';

/** Upstream's message when a pod would be created without labels (it could never be claimed). */
export const NO_LABELS_MESSAGE = 'unable to create pods, no labels';

/**
 * Upstream `getPodsPrefix`: `<owner>-` if that is a valid pod `generateName`, else the bare name
 * (so the server's 5 random characters are appended directly).
 */
export function podNamePrefix(ownerName: string): string {
  const prefix = `${ownerName}-`;
  return nameIsDNSSubdomain(prefix, true).length === 0 ? prefix : ownerName;
}

/**
 * Upstream `GetPodFromTemplate`: a new pod with copies of the template's labels, annotations and
 * finalizers, a deep copy of its spec, `generateName` from {@link podNamePrefix} and the
 * controllerRef (if any) as its only ownerReference. Empty label/annotation/finalizer sets are
 * omitted, as Go's `omitempty` drops them. Unlike upstream, `apiVersion`/`kind` are filled and
 * `namespace` is the owner's (upstream sets the namespace through the create URL instead).
 * The template is never mutated.
 *
 * The result is a `KubeObject`, not a `Pod`: a template without a spec gives `spec: {}` (Go's
 * zero PodSpec), which the server refuses as it refuses upstream's, and which no `PodSpec` is.
 * Narrow it with `asKind(…, 'Pod')` where its spec is read.
 */
export function podFromTemplate(
  template: PodTemplateSpec,
  owner: KubeObject,
  controllerRef?: OwnerReference,
): KubeObject {
  const tm = template.metadata ?? {};
  const metadata: ObjectMeta = { generateName: podNamePrefix(owner.metadata?.name ?? '') };
  if (owner.metadata?.namespace) metadata.namespace = owner.metadata.namespace;
  if (tm.labels && Object.keys(tm.labels).length > 0) metadata.labels = { ...tm.labels };
  if (tm.annotations && Object.keys(tm.annotations).length > 0) {
    metadata.annotations = { ...tm.annotations };
  }
  if (tm.finalizers && tm.finalizers.length > 0) metadata.finalizers = [...tm.finalizers];
  if (controllerRef !== undefined) metadata.ownerReferences = [{ ...controllerRef }];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: deepCopy(template.spec ?? {}),
  };
}

/**
 * Whether `value` is shaped as a pod template: an object whose `metadata` and `spec`, when
 * present, are objects. For templates kept outside a typed field (a ControllerRevision's `data`
 * holds one as raw JSON); like `asKind`, it checks the shape, not every field: the template was
 * validated as part of its workload before it was saved.
 */
export function isPodTemplateSpec(value: unknown): value is PodTemplateSpec {
  if (!isJsonObject(value)) return false;
  const { metadata, spec } = value;
  return (
    (metadata === undefined || isJsonObject(metadata)) && (spec === undefined || isJsonObject(spec))
  );
}

/**
 * Upstream `createPods`' client-side guard: a pod without labels is refused before any request,
 * because no selector-based controller could ever claim it. Returns the error, or undefined.
 */
export function checkPodCreatable(pod: KubeObject): Error | undefined {
  const labels = pod.metadata?.labels;
  return labels && Object.keys(labels).length > 0 ? undefined : new Error(NO_LABELS_MESSAGE);
}
