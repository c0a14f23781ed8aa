/**
 * The determinism property (issue 15): under the virtual clock at speed `max`, two runs of
 * the same story with the same seed produce the same sequence of watch events (type, kind,
 * name, resourceVersion, and every timestamp and generated name and UID in the objects); a
 * different seed gives a different one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../api/object.js';
import { listerWatcherFromKubeconfig } from '../client/kubeconfig-connection.js';
import { startCluster } from './index.js';
import type { TestCluster } from './types.js';

const WATCHED = [
  '/api/v1/pods',
  '/apis/apps/v1/statefulsets',
  '/apis/apps/v1/controllerrevisions',
  '/api/v1/nodes',
  '/apis/coordination.k8s.io/v1/leases',
  '/api/v1/persistentvolumeclaims',
  '/api/v1/persistentvolumes',
  '/api/v1/events',
];

interface Recorded {
  readonly rv: number;
  readonly line: string;
}

interface Recording {
  readonly events: Recorded[];
  /** Resolves once every watched object's current resourceVersion has been recorded. */
  caughtUp(): Promise<void>;
}

/** Every event of the watched kinds, from a watch started before the story. */
async function record(cluster: TestCluster, signal: AbortSignal): Promise<Recording> {
  const out: Recorded[] = [];
  const seen = new Set<string>();
  const note = (type: string, obj: KubeObject): void => {
    const rv = obj.metadata?.resourceVersion ?? '';
    seen.add(rv);
    out.push({ rv: Number(rv), line: `${type} ${JSON.stringify(obj)}` });
  };
  await Promise.all(
    WATCHED.map(async (path) => {
      const lw = await listerWatcherFromKubeconfig(cluster.kubeconfigPath, { path });
      const list = await lw.list({});
      for (const obj of list.items) note('LISTED', obj);
      void lw
        .watch(
          { resourceVersion: list.resourceVersion, allowWatchBookmarks: false },
          (e) => {
            if (e.type !== 'BOOKMARK') note(e.type, e.object);
          },
          signal,
        )
        .catch(() => undefined);
    }),
  );
  const caughtUp = async (): Promise<void> => {
    for (const path of WATCHED) {
      const lw = await listerWatcherFromKubeconfig(cluster.kubeconfigPath, { path });
      const { items } = await lw.list({});
      await until(() => items.every((o) => seen.has(o.metadata?.resourceVersion ?? '')));
    }
  };
  return { events: out, caughtUp };
}

/** A StatefulSet with claims comes up; a node is lost; 10 minutes pass. */
async function story(seed: number): Promise<string[]> {
  const cluster = await startCluster({ nodes: 3, seed });
  const stop = new AbortController();
  try {
    const recording = await record(cluster, stop.signal);
    await cluster.client.create(
      { group: 'apps', version: 'v1', plural: 'statefulsets', namespace: 'default' },
      {
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
      } as KubeObject,
    );
    await cluster.clock.advance('2m');
    await cluster.chaos.nodeDown('fleetyard-node-2');
    await cluster.clock.advance('10m');
    await recording.caughtUp();
    return recording.events
      .sort((a, b) => a.rv - b.rv || a.line.localeCompare(b.line))
      .map((e) => e.line);
  } finally {
    stop.abort();
    await cluster.stop();
  }
}

/** Polls `done` for up to 5 s of wall time (the watches deliver within milliseconds). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
}

/** The first line where two runs differ, for the failure message. */
function firstDifference(a: readonly string[], b: readonly string[]): string {
  const i = a.findIndex((line, k) => line !== b[k]);
  if (i < 0) return a.length === b.length ? 'none' : `lengths ${a.length} and ${b.length}`;
  return `event ${i}:\n  ${a[i]?.slice(0, 300)}\n  ${b[i]?.slice(0, 300)}`;
}

describe('deterministic runs (--seed, virtual clock)', () => {
  it('the same seed gives the same watch events; another seed gives others', async () => {
    const first = await story(11);
    const second = await story(11);
    assert.ok(first.length > 300, `only ${first.length} events recorded`);
    assert.equal(firstDifference(first, second), 'none');
    const other = await story(12);
    assert.notEqual(firstDifference(first, other), 'none');
  });
});
