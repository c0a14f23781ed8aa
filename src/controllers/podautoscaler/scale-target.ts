/**
 * The HPA's target through its `/scale` subresource (upstream: the discovery REST mapper and
 * `scaleclient`): `scaleTargetRef`'s group and kind are mapped to a resource with discovery
 * (`/api/v1`, `/apis/{group}`, `/apis/{group}/{version}`; the preferred version first, one that
 * lists `{plural}/scale`), so Deployments, StatefulSets, ReplicaSets, ReplicationControllers and
 * any custom resource with a scale subresource (a CelldFleet) work alike. Mappings are cached;
 * a miss reads discovery again (a CRD may have been installed since).
 *
 * Errors carry upstream's texts, which the controller puts in `FailedGetScale`.
 *
 * @module
 */
import type { AutoscalingV2CrossVersionObjectReference as TargetRef } from '../../api/model/index.js';
import { isJsonObject, type KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { type ResourceType, resourcePath } from '../../client/resource-path.js';
import type { ScaleView } from './plan.js';

/** A target's scale as read, with the resource it was read through. */
export interface TargetScale {
  readonly resource: ResourceType;
  readonly view: ScaleView;
  /** The Scale's resourceVersion: the precondition of the write. */
  readonly resourceVersion?: string;
}

/** Reads and writes targets' `/scale`. */
export interface ScaleClient {
  get(namespace: string, ref: TargetRef, signal?: AbortSignal): Promise<TargetScale>;
  update(
    namespace: string,
    name: string,
    target: TargetScale,
    replicas: number,
    signal?: AbortSignal,
  ): Promise<void>;
}

/** Upstream `schema.ParseGroupVersion`: `v1`, `apps/v1`; more slashes are an error. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0] ?? '' };
  if (parts.length === 2) return { group: parts[0] ?? '', version: parts[1] ?? '' };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

function records(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** The autoscaling/v1 Scale's spec and status as a {@link ScaleView}. */
export function scaleView(scale: KubeObject): ScaleView {
  const spec = isJsonObject(scale.spec) ? scale.spec : {};
  const status = isJsonObject(scale.status) ? scale.status : {};
  return {
    specReplicas: typeof spec.replicas === 'number' ? spec.replicas : 0,
    statusReplicas: typeof status.replicas === 'number' ? status.replicas : 0,
    selector: typeof status.selector === 'string' ? status.selector : '',
  };
}

/** {@link ScaleClient} over the API: discovery for the mapping, `/scale` for the rest. */
export class ApiScaleClient implements ScaleClient {
  readonly #client: ApiClient;
  /** `group/Kind` → the resource whose `/scale` serves it. */
  readonly #mappings = new Map<string, ResourceType>();

  constructor(client: ApiClient) {
    this.#client = client;
  }

  async get(namespace: string, ref: TargetRef, signal?: AbortSignal): Promise<TargetScale> {
    const { group } = parseGroupVersion(ref.apiVersion ?? '');
    const resource = await this.#resolve(group, ref.kind, signal);
    const path = resourcePath({ ...resource, namespace, name: ref.name, subresource: 'scale' });
    const scale = await this.#client.getPath(path, signal !== undefined ? { signal } : {});
    if (!isJsonObject(scale)) throw new Error(`GET ${path}: the response is not an object`);
    const rv = isJsonObject(scale.metadata) ? scale.metadata.resourceVersion : undefined;
    return {
      resource,
      view: scaleView(scale),
      ...(typeof rv === 'string' ? { resourceVersion: rv } : {}),
    };
  }

  async update(
    namespace: string,
    name: string,
    target: TargetScale,
    replicas: number,
    signal?: AbortSignal,
  ): Promise<void> {
    // Upstream PUTs the Scale it read (its role grants `update` on `*/scale`, not `patch`):
    // the read's resourceVersion is the precondition.
    const scale = {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: {
        name,
        namespace,
        ...(target.resourceVersion !== undefined
          ? { resourceVersion: target.resourceVersion }
          : {}),
      },
      spec: { replicas },
    };
    await this.#client.updateSubresource(
      { ...target.resource, namespace, name },
      'scale',
      scale,
      signal !== undefined ? { signal } : {},
    );
  }

  async #resolve(group: string, kind: string, signal?: AbortSignal): Promise<ResourceType> {
    const key = `${group}/${kind}`;
    const cached = this.#mappings.get(key);
    if (cached !== undefined) return cached;
    const found = await this.#discover(group, kind, signal);
    if (found === undefined)
      throw new Error(
        `no matches for kind ${JSON.stringify(kind)} in group ${JSON.stringify(group)}`,
      );
    this.#mappings.set(key, found);
    return found;
  }

  /** The group's versions, preferred first; the first whose resource of `kind` has `/scale`. */
  async #discover(
    group: string,
    kind: string,
    signal?: AbortSignal,
  ): Promise<ResourceType | undefined> {
    const opts = signal !== undefined ? { signal } : {};
    const get = async (path: string): Promise<Record<string, unknown> | undefined> => {
      try {
        const doc = await this.#client.getPath(path, opts);
        return isJsonObject(doc) ? doc : undefined;
      } catch {
        return undefined;
      }
    };
    let versions: string[] = ['v1'];
    if (group !== '') {
      const doc = await get(`/apis/${encodeURIComponent(group)}`);
      if (doc === undefined) return undefined;
      const preferred = isJsonObject(doc.preferredVersion)
        ? doc.preferredVersion.version
        : undefined;
      const all = records(doc.versions).flatMap((v) =>
        typeof v.version === 'string' ? [v.version] : [],
      );
      versions =
        typeof preferred === 'string' ? [preferred, ...all.filter((v) => v !== preferred)] : all;
    }
    for (const version of versions) {
      const base =
        group === '' ? `/api/${version}` : `/apis/${encodeURIComponent(group)}/${version}`;
      const list = records((await get(base))?.resources);
      const main = list.find(
        (r) => r.kind === kind && typeof r.name === 'string' && !r.name.includes('/'),
      );
      if (typeof main?.name !== 'string') continue;
      const plural = main.name;
      if (list.some((r) => r.name === `${plural}/scale`)) return { group, version, plural };
    }
    return undefined;
  }
}
