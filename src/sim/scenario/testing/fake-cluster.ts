/**
 * A {@link TestCluster} for the runner's tests: the real API server in-process (memory
 * backend, plain HTTP, real watches and discovery) on a {@link FakeClock}, with the cluster's
 * behaviour replaced by the test's own `react` function, called after every virtual second
 * an `advance` runs through. No controllers, no kubelet: a test says exactly what the
 * cluster does ("a pod bound to a node is Running and Ready 5 s after it was created"), so
 * what the runner makes of it can be asserted exactly.
 *
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer } from '../../../apiserver/testing/test-server.js';
import { ApiClient } from '../../../client/api-client.js';
import { FakeClock } from '../../../util/clock.js';
import { runStorageChaos, storageChaos } from '../../chaos/storage-chaos.js';
import type { ClusterChaos, ClusterOptions, TestCluster } from '../../cluster.js';
import { parseGoDuration } from '../../kubelet/annotations.js';

export interface FakeClusterOptions {
  /** Called after each virtual second of an advance: the cluster's behaviour. */
  readonly react?: (client: ApiClient, now: number) => Promise<void>;
}

/** What the fake was started with and what happened to it, for assertions. */
export interface FakeClusterRecord {
  options?: ClusterOptions;
  stopped: boolean;
}

const STEP_MS = 1000;

/** A `startCluster` stand-in; `record` receives the options and the stop. */
export function fakeStartCluster(
  fake: FakeClusterOptions = {},
  record: FakeClusterRecord = { stopped: false },
): (options: ClusterOptions) => Promise<TestCluster> {
  return async (options) => {
    record.options = options;
    const start = typeof options.start === 'string' ? Date.parse(options.start) : options.start;
    const clock = new FakeClock(start ?? Date.UTC(2026, 0, 1));
    const server = await startTestServer({ clock });
    const client = new ApiClient({ server: server.url });
    const dir = await mkdtemp(join(tmpdir(), 'fleetyard-scenario-'));
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, kubeconfig(server.url), { mode: 0o600 });
    await createNodes(client, options.nodes ?? 3, options.zones ?? ['a', 'b', 'c']);
    const advance = async (duration: number | string): Promise<void> => {
      let left = typeof duration === 'number' ? duration : (parseGoDuration(duration) ?? 0);
      while (left > 0) {
        const step = Math.min(STEP_MS, left);
        await clock.step(step);
        left -= step;
        await fake.react?.(client, clock.now());
      }
    };
    let stopped = false;
    return {
      url: server.url,
      kubeconfigPath,
      client,
      clock: {
        now: () => new Date(clock.now()),
        status: () => ({
          mode: 'virtual',
          now: clock.now(),
          speed: 0,
          paused: true,
          state: 'Paused',
          pendingTimers: clock.pending(),
          quiescent: true,
        }),
        advance,
        until: async (time) => advance(new Date(time).getTime() - clock.now()),
        pause: () => undefined,
        resume: () => undefined,
        setSpeed: () => undefined,
      },
      chaos: chaosOf(client),
      stop: async () => {
        if (stopped) return;
        stopped = true;
        record.stopped = true;
        client.close();
        await server.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  };
}

function kubeconfig(server: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'fake', cluster: { server } }],
    users: [{ name: 'fake', user: {} }],
    contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'fake' } }],
    'current-context': 'fake',
  });
}

async function createNodes(
  client: ApiClient,
  count: number,
  zones: readonly string[],
): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const name = `fleetyard-node-${i}`;
    await client.create(
      { group: '', version: 'v1', plural: 'nodes' },
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name,
          labels: {
            'kubernetes.io/hostname': name,
            'topology.kubernetes.io/zone': `local-${zones[(i - 1) % zones.length]}`,
          },
        },
      },
    );
  }
}

/** The chaos verbs as `fleetyard chaos` writes them. */
function chaosOf(client: ApiClient): ClusterChaos {
  const annotate = async (
    plural: 'nodes' | 'pods',
    name: string,
    namespace: string | undefined,
    annotations: Record<string, string | null>,
  ): Promise<void> => {
    await client.patch(
      { group: '', version: 'v1', plural, name, namespace },
      { metadata: { annotations } },
      'merge',
    );
  };
  const storage = async (verb: string, name: string, namespace = 'default'): Promise<void> => {
    const command = storageChaos(verb, name, namespace);
    if (command === undefined) throw new Error(`not a storage fault: ${verb}`);
    await runStorageChaos(client, command);
  };
  return {
    nodeDown: (node) => annotate('nodes', node, undefined, { 'sim.fleetyard.dev/state': 'down' }),
    nodeUp: (node) => annotate('nodes', node, undefined, { 'sim.fleetyard.dev/state': 'up' }),
    crash: (pod, o) =>
      annotate('pods', pod, o?.namespace ?? 'default', {
        'sim.fleetyard.dev/exit-code': String(o?.exitCode ?? 1),
      }),
    breakReadiness: (pod, ns) =>
      annotate('pods', pod, ns ?? 'default', { 'sim.fleetyard.dev/ready': 'false' }),
    restoreReadiness: (pod, ns) =>
      annotate('pods', pod, ns ?? 'default', { 'sim.fleetyard.dev/ready': null }),
    loseVolume: (claim, ns) => storage('lose-volume', claim, ns),
    failZone: (zone) => storage('fail-zone', zone),
    restoreZone: (zone) => storage('restore-zone', zone),
    failNodeStorage: (node) => storage('fail-node-storage', node),
    restoreNodeStorage: (node) => storage('restore-node-storage', node),
  };
}
