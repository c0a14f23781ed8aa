/**
 * Both ends of the dashboard's latency measurement: a watch of the pods from the benchmark
 * process (the time it saw each change stands for the time of the API change: the objects'
 * own timestamps are whole seconds), and a MutationObserver in the page recording when each
 * `[data-testid="pod"]` element appeared, changed `data-phase`/`data-ready`, moved to a node,
 * or went away. Both stamp `Date.now()`.
 *
 * @module
 */
import type { ClientRequest } from 'node:http';
import type { Page } from 'playwright-core';
import type { PodChange } from './dashboard-latency.js';
import type { Fleetyard } from './fleetyard.js';
import { authedGet, getJson } from './watch-until.js';

interface PodObject {
  readonly metadata: { readonly name: string; readonly namespace?: string };
  readonly spec?: { readonly nodeName?: string };
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly { type: string; status: string }[];
  };
}

function podState(at: number, p: PodObject): PodChange {
  const ready = (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  return {
    at,
    pod: `${p.metadata.namespace ?? 'default'}/${p.metadata.name}`,
    phase: p.status?.phase ?? 'Pending',
    ready,
    node: p.spec?.nodeName ?? '',
  };
}

export interface PodWatch {
  /** Every change of a pod's phase, readiness or node, and its deletion, as seen. */
  readonly changes: PodChange[];
  stop(): void;
}

/**
 * Lists the pods of `namespace` (their starting state, not changes) and watches them from
 * there, as `kubectl get -w` does. Resolves once the watch answered.
 */
export async function watchPods(fy: Fleetyard, namespace: string): Promise<PodWatch> {
  const changes: PodChange[] = [];
  const last = new Map<string, string>();
  const record = (type: string, p: PodObject, initial: boolean): void => {
    const state = podState(Date.now(), p);
    const c = type === 'DELETED' ? { ...state, phase: 'DELETED' } : state;
    const key = `${c.phase}|${c.ready}|${c.node}`;
    if (last.get(c.pod) === key) return;
    last.set(c.pod, key);
    if (!initial) changes.push(c);
  };
  const list = await getJson<{ metadata: { resourceVersion: string }; items: PodObject[] }>(
    fy,
    `/api/v1/namespaces/${namespace}/pods`,
  );
  for (const p of list.items) record('ADDED', p, true);
  const rv = list.metadata.resourceVersion;
  const path = `/api/v1/namespaces/${namespace}/pods?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`;
  let req: ClientRequest | undefined;
  await new Promise<void>((resolve, reject) => {
    req = authedGet(fy, path, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch pods: HTTP ${res.statusCode}`));
        return;
      }
      resolve();
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          if (line.trim() === '') continue;
          const ev = JSON.parse(line) as { type: string; object: PodObject };
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED')
            record(ev.type, ev.object, false);
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
  return { changes, stop: () => req?.destroy() };
}

/**
 * Starts recording pod elements' changes in the page (call once the page shows the pods;
 * the elements present now are its starting state, not changes).
 */
export async function observePagePods(page: Page): Promise<void> {
  await page.evaluate(() => {
    interface PodEl {
      readonly nodeType: number;
      getAttribute(name: string): string | null;
      matches(selector: string): boolean;
      closest(selector: string): PodEl | null;
      querySelectorAll(selector: string): ArrayLike<PodEl>;
    }
    interface Mutation {
      readonly type: string;
      readonly target: PodEl;
      readonly addedNodes: ArrayLike<PodEl>;
      readonly removedNodes: ArrayLike<PodEl>;
    }
    const doc: { body: PodEl; querySelector(s: string): PodEl | null } = Reflect.get(
      globalThis,
      'document',
    );
    const Observer: new (
      cb: (ms: Mutation[]) => void,
    ) => { observe(target: PodEl, options: object): void } = Reflect.get(
      globalThis,
      'MutationObserver',
    );
    const POD = '[data-testid="pod"]';
    const seen = new Map<string, string>();
    const out: [number, string, string, boolean, string][] = [];
    Reflect.set(globalThis, '__fyPodChanges', out);
    const stateOf = (el: PodEl): [string, boolean, string] => [
      el.getAttribute('data-phase') ?? '',
      el.getAttribute('data-ready') === 'true',
      el.closest('[data-testid="node"]')?.getAttribute('data-node') ?? '',
    ];
    const record = (el: PodEl, at: number, initial: boolean): void => {
      const pod = el.getAttribute('data-pod') ?? '';
      const [phase, ready, node] = stateOf(el);
      const key = `${phase}|${ready}|${node}`;
      if (seen.get(pod) === key) return;
      seen.set(pod, key);
      if (!initial) out.push([at, pod, phase, ready, node]);
    };
    const pods = (n: PodEl): PodEl[] =>
      n.nodeType !== 1
        ? []
        : [...(n.matches(POD) ? [n] : []), ...Array.from(n.querySelectorAll(POD))];
    for (const el of Array.from(doc.body.querySelectorAll(POD))) record(el, 0, true);
    const onMutation = (m: Mutation, at: number, removed: Set<string>): void => {
      if (m.type === 'attributes' && m.target.matches(POD)) record(m.target, at, false);
      for (const el of Array.from(m.addedNodes).flatMap(pods)) record(el, at, false);
      for (const el of Array.from(m.removedNodes).flatMap(pods))
        removed.add(el.getAttribute('data-pod') ?? '');
    };
    // An element removed and re-added in one batch (a re-render) is not a deletion.
    const settle = (pod: string, at: number): void => {
      const still = doc.querySelector(`${POD}[data-pod=${JSON.stringify(pod)}]`);
      if (still) record(still, at, false);
      else if (seen.delete(pod)) out.push([at, pod, 'DELETED', false, '']);
    };
    new Observer((mutations) => {
      const at = Date.now();
      const removed = new Set<string>();
      for (const m of mutations) onMutation(m, at, removed);
      for (const pod of removed) settle(pod, at);
    }).observe(doc.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-phase', 'data-ready'],
    });
  });
}

/** What the page recorded since `observePagePods`. */
export async function pagePodChanges(page: Page): Promise<PodChange[]> {
  const rows = await page.evaluate(() => {
    const out: [number, string, string, boolean, string][] =
      Reflect.get(globalThis, '__fyPodChanges') ?? [];
    return out;
  });
  return rows.map(([at, pod, phase, ready, node]) => ({ at, pod, phase, ready, node }));
}

export interface MapPaint {
  /** Navigation start → `fy:map-painted`, ms. */
  readonly paintMs: number;
  /** Navigation start → the bundle fully loaded, ms (what the rest is not). */
  readonly bundleMs: number;
}

/** Loads the map in `page` and times it from the navigation's start (performance.timeOrigin). */
export async function mapPaint(page: Page, url: string, timeoutMs: number): Promise<MapPaint> {
  await page.goto(url);
  await page.waitForFunction(
    () => performance.getEntriesByName('fy:map-painted').length > 0,
    undefined,
    { timeout: timeoutMs, polling: 50 },
  );
  return page.evaluate(() => {
    const bundle = performance
      .getEntriesByType('resource')
      .find((e) => e.name.endsWith('/ui/app.js'));
    const mark = performance.getEntriesByName('fy:map-painted')[0]!;
    const end = bundle === undefined ? Number.NaN : Reflect.get(bundle, 'responseEnd');
    return { paintMs: mark.startTime, bundleMs: typeof end === 'number' ? end : Number.NaN };
  });
}

/** Waits until the page shows exactly `n` ready pods. */
export async function readyPodsShown(page: Page, n: number, timeoutMs: number): Promise<void> {
  await page.waitForFunction(
    (count) => {
      const doc: { querySelectorAll(s: string): ArrayLike<unknown> } = Reflect.get(
        globalThis,
        'document',
      );
      return doc.querySelectorAll('[data-testid="pod"][data-ready="true"]').length === count;
    },
    n,
    { timeout: timeoutMs, polling: 100 },
  );
}

interface HistoryEntry {
  readonly type: string;
  readonly time: string;
  readonly group: string;
  readonly resource: string;
  readonly object: PodObject;
}

/**
 * The pod changes of `namespace` the server recorded at or after `sinceMs`, stamped with the
 * server's own time of each change (`/ui/api/history`, ms; the real clock's time is the wall
 * clock's). Read after the run, so fetching it does not load the server being measured.
 */
export async function historyPodChanges(
  page: Page,
  origin: string,
  namespace: string,
  sinceMs: number,
): Promise<PodChange[]> {
  const res = await page.context().request.get(`${origin}/ui/api/history`, { timeout: 120_000 });
  if (!res.ok()) throw new Error(`GET /ui/api/history: HTTP ${res.status()}`);
  const { entries } = (await res.json()) as { entries: HistoryEntry[] };
  const last = new Map<string, string>();
  const out: PodChange[] = [];
  for (const e of entries) {
    if (e.group !== '' || e.resource !== 'pods' || e.object.metadata.namespace !== namespace)
      continue;
    const state = podState(Date.parse(e.time), e.object);
    const c = e.type === 'DELETED' ? { ...state, phase: 'DELETED' } : state;
    const key = `${c.phase}|${c.ready}|${c.node}`;
    if (last.get(c.pod) === key) continue;
    last.set(c.pod, key);
    if (c.at >= sinceMs) out.push(c);
  }
  return out;
}
