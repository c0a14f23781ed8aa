/**
 * The graph builder's monitors (upstream `graph_builder.go: syncMonitors`): one shared informer
 * per deletable resource, whose events feed the owner graph. Each rescan of discovery adds
 * monitors for new resources (CRDs created later) and drops those of resources that went away.
 *
 * Informers belong to the shared factory and cannot be stopped one by one: a dropped monitor
 * only unregisters its handler. An informer of a deleted CRD keeps relisting with its backoff
 * (800 ms–30 s) and tolerates the 404s; if the CRD comes back, the next rescan registers a
 * handler again and the informer's replay adds its objects to the graph.
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import {
  deletedObject,
  type HandlerRegistration,
  type SharedInformer,
} from '../../client/shared-informer.js';
import type { InformerFactory } from '../../controller/context.js';
import { type DiscoveredResource, resourceKey } from './discovery.js';

/** What the monitors report to the collector. */
export interface GraphSink {
  upsert(obj: KubeObject): void;
  remove(obj: KubeObject): void;
}

interface Monitor {
  readonly resource: DiscoveredResource;
  readonly informer: SharedInformer<KubeObject>;
  readonly registration: HandlerRegistration;
}

export class Monitors {
  readonly #informers: InformerFactory;
  readonly #sink: GraphSink;
  readonly #monitors = new Map<string, Monitor>();

  constructor(informers: InformerFactory, sink: GraphSink) {
    this.#informers = informers;
    this.#sink = sink;
  }

  /** Makes the monitors match `resources`; returns the informers it started watching. */
  sync(resources: readonly DiscoveredResource[]): SharedInformer<KubeObject>[] {
    const wanted = new Map(resources.map((r) => [resourceKey(r), r]));
    for (const [key, m] of this.#monitors) {
      const r = wanted.get(key);
      if (r !== undefined && r.version === m.resource.version) continue;
      m.registration.remove();
      this.#monitors.delete(key);
    }
    const added: SharedInformer<KubeObject>[] = [];
    for (const [key, resource] of wanted) {
      if (this.#monitors.has(key)) continue;
      const { group, version, plural } = resource;
      const informer = this.#informers.informer({ group, version, plural });
      const registration = informer.addEventHandler({
        onAdd: (obj) => this.#sink.upsert(withTypeMeta(obj, resource)),
        onUpdate: (_old, obj) => this.#sink.upsert(withTypeMeta(obj, resource)),
        onDelete: (d) => this.#sink.remove(withTypeMeta(deletedObject(d), resource)),
      });
      this.#monitors.set(key, { resource, informer, registration });
      added.push(informer);
    }
    return added;
  }

  informers(): SharedInformer<KubeObject>[] {
    return [...this.#monitors.values()].map((m) => m.informer);
  }

  stop(): void {
    for (const m of this.#monitors.values()) m.registration.remove();
    this.#monitors.clear();
  }
}

/** Objects in lists may lack `apiVersion`/`kind`; the graph identifies owners by them. */
function withTypeMeta(obj: KubeObject, r: DiscoveredResource): KubeObject {
  const apiVersion = r.group === '' ? r.version : `${r.group}/${r.version}`;
  if (obj.apiVersion === apiVersion && obj.kind === r.kind) return obj;
  return { ...obj, apiVersion, kind: r.kind };
}
