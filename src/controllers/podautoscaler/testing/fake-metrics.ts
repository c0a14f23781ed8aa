/**
 * A {@link PodMetricsSource} for tests: usage set per pod (`setCpu('web-1', '200m')`), listed
 * for the pods of the namespace that match the selector, as the Metrics API would; `fail(msg)`
 * makes every listing fail.
 *
 * @module
 */
import { parseLabelSelector } from '../../../api/labels/selector.js';
import type { PodMetricsItem, PodMetricsSource } from '../metrics-source.js';

interface Entry {
  readonly labels: Readonly<Record<string, string>>;
  readonly usage: Record<string, string>;
}

export class FakePodMetrics implements PodMetricsSource {
  readonly #pods = new Map<string, Entry>();
  #error: string | undefined;
  /** The timestamp of every sample. */
  timestampMs = 0;
  /** Every listing, `namespace?selector`, in order. */
  readonly calls: string[] = [];

  /** Sets a pod's usage of `resource` (one container, `main`). */
  set(
    namespace: string,
    name: string,
    labels: Record<string, string>,
    resource: string,
    value: string,
  ): void {
    const key = `${namespace}/${name}`;
    const entry = this.#pods.get(key) ?? { labels, usage: {} };
    entry.usage[resource] = value;
    this.#pods.set(key, { labels, usage: entry.usage });
  }

  fail(message: string | undefined): void {
    this.#error = message;
  }

  async list(namespace: string, labelSelector: string): Promise<PodMetricsItem[]> {
    this.calls.push(`${namespace}?${labelSelector}`);
    if (this.#error !== undefined) throw new Error(this.#error);
    const selector = parseLabelSelector(labelSelector);
    const items: PodMetricsItem[] = [];
    for (const [key, e] of this.#pods) {
      const [ns, name = ''] = key.split('/');
      if (ns !== namespace || !selector.matches(e.labels)) continue;
      items.push({
        name,
        timestampMs: this.timestampMs,
        windowMs: 60_000,
        containers: [{ name: 'main', usage: { ...e.usage } }],
      });
    }
    return items;
  }
}
