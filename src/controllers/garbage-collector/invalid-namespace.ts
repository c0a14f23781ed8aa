/**
 * The `OwnerRefInvalidNamespace` warnings (upstream `graph_builder.go:
 * reportInvalidNamespaceOwnerRef`): a namespaced owner can only own objects of its own
 * namespace, so a dependent elsewhere (or a cluster-scoped one) names an owner that does not
 * exist for it. Upstream reports it when the graph learns both sides: when a dependent's new
 * ref points at an observed namespaced owner, and when an owner known only virtually is first
 * observed and turns out to live in another namespace than some of its dependents.
 *
 * The dependents are still classified by a live read in their own namespace (the owner is then
 * absent, so a sole owner lets them be collected); this module only finds what to report.
 *
 * @module
 */
import type { KubeObject, OwnerReference } from '../../api/object.js';
import type { GraphNode, OwnerGraph } from './graph.js';

export interface InvalidNamespaceRef {
  readonly dependent: GraphNode;
  readonly ref: OwnerReference;
}

/** The event reason upstream uses. */
export const OWNER_REF_INVALID_NAMESPACE = 'OwnerRefInvalidNamespace';

/**
 * Refs to report after `uid` was upserted. `ownersBefore` are the UIDs the node referenced
 * before; `wasVirtual` says whether the node was only known from its dependents' refs.
 */
export function invalidNamespaceRefs(
  graph: OwnerGraph,
  uid: string,
  ownersBefore: ReadonlySet<string>,
  wasVirtual: boolean,
): InvalidNamespaceRef[] {
  const node = graph.get(uid);
  if (node === undefined || !node.observed) return [];
  const out: InvalidNamespaceRef[] = node.owners
    .filter((ref) => !ownersBefore.has(ref.uid))
    .filter((ref) => {
      const owner = graph.get(ref.uid);
      return owner?.observed === true && wrongNamespace(owner, node);
    })
    .map((ref) => ({ dependent: node, ref }));
  if (wasVirtual) out.push(...misplacedDependents(graph, node));
  return out;
}

/** Dependents of a newly observed owner that live outside its namespace. */
function misplacedDependents(graph: OwnerGraph, owner: GraphNode): InvalidNamespaceRef[] {
  const uid = owner.identity.uid;
  return graph
    .dependentsOf(uid)
    .filter((dep) => wrongNamespace(owner, dep))
    .flatMap((dep) =>
      dep.owners.filter((r) => r.uid === uid).map((ref) => ({ dependent: dep, ref })),
    );
}

function wrongNamespace(owner: GraphNode, dependent: GraphNode): boolean {
  const ns = owner.identity.namespace;
  return ns !== '' && ns !== dependent.identity.namespace;
}

/** Upstream's message: the ref printed as `objectReference.String()`, in the dependent's namespace. */
export function invalidNamespaceMessage(ref: OwnerReference, dependentNamespace: string): string {
  const coords = `${ref.apiVersion}/${ref.kind}, namespace: ${dependentNamespace}, name: ${ref.name}, uid: ${ref.uid}`;
  return `ownerRef [${coords}] does not exist in namespace ${JSON.stringify(dependentNamespace)}`;
}

/** A minimal object for the event's `involvedObject`. */
export function eventTarget(node: GraphNode): KubeObject {
  const { apiVersion, kind, name, namespace, uid } = node.identity;
  return {
    apiVersion,
    kind,
    metadata: { name, uid, ...(namespace === '' ? {} : { namespace }) },
  };
}
