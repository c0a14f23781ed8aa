/**
 * Test support: records every watch event of some kinds of a {@link TestCluster}, as a
 * client outside the process sees them, for assertions over the whole history of a run (the
 * determinism property, the frozen wall clock).
 *
 * @module
 */
import type { KubeObject } from '../../api/object.js';
import { listerWatcherFromKubeconfig } from '../../client/kubeconfig-connection.js';
import type { TestCluster } from '../../sim/cluster.js';

/** Collection paths of the kinds a stateful story touches. */
export const STORY_KINDS: readonly string[] = [
  '/api/v1/pods',
  '/apis/apps/v1/statefulsets',
  '/apis/apps/v1/controllerrevisions',
  '/api/v1/nodes',
  '/apis/coordination.k8s.io/v1/leases',
  '/api/v1/persistentvolumeclaims',
  '/api/v1/persistentvolumes',
  '/api/v1/events',
];

export interface RecordedEvent {
  /** LISTED (present when recording started), ADDED, MODIFIED or DELETED. */
  readonly type: string;
  readonly path: string;
  readonly object: KubeObject;
}

export interface Recording {
  readonly events: RecordedEvent[];
  /** Resolves once every watched object's current resourceVersion has been recorded. */
  caughtUp(): Promise<void>;
  /** The events ordered by resourceVersion, each as one line of JSON. */
  lines(): string[];
  stop(): void;
}

export async function recordEvents(
  cluster: TestCluster,
  paths: readonly string[] = STORY_KINDS,
): Promise<Recording> {
  const events: RecordedEvent[] = [];
  const seen = new Set<string>();
  const stop = new AbortController();
  const note = (type: string, path: string, object: KubeObject): void => {
    seen.add(object.metadata?.resourceVersion ?? '');
    events.push({ type, path, object });
  };
  await Promise.all(
    paths.map(async (path) => {
      const lw = await listerWatcherFromKubeconfig(cluster.kubeconfigPath, { path });
      const list = await lw.list({});
      for (const obj of list.items) note('LISTED', path, obj);
      const options = { resourceVersion: list.resourceVersion, allowWatchBookmarks: false };
      void lw
        .watch(options, (e) => e.type !== 'BOOKMARK' && note(e.type, path, e.object), stop.signal)
        .catch(() => undefined);
    }),
  );
  return {
    events,
    caughtUp: async () => {
      for (const path of paths) {
        const lw = await listerWatcherFromKubeconfig(cluster.kubeconfigPath, { path });
        const { items } = await lw.list({});
        await until(() => items.every((o) => seen.has(o.metadata?.resourceVersion ?? '')));
      }
    },
    lines: () =>
      events
        .map((e) => ({
          rv: Number(e.object.metadata?.resourceVersion),
          line: `${e.type} ${JSON.stringify(e.object)}`,
        }))
        .sort((a, b) => a.rv - b.rv || a.line.localeCompare(b.line))
        .map((e) => e.line),
    stop: () => stop.abort(),
  };
}

/** Polls `done` for up to 5 s of wall time (the watches deliver within milliseconds). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** The stateful story both run-history tests tell: a 3-member StatefulSet with claims. */
export async function createWebStatefulSet(cluster: TestCluster): Promise<void> {
  const web: KubeObject = {
    metadata: { name: 'web' },
    spec: {
      replicas: 3,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'www' },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
  await cluster.client.create(
    { group: 'apps', version: 'v1', plural: 'statefulsets', namespace: 'default' },
    web,
  );
}
