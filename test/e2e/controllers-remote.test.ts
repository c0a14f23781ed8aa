/**
 * `fleetyard controllers` against a remote API server: `fleetyard up --controllers=` serves
 * the API alone, and two `fleetyard controllers --kubeconfig …` processes compete for the
 * Lease. Only the leader acts (one holder, pods created once); when it is stopped, the standby
 * takes the Lease and carries on (a scale-up is served).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { after, before, it } from 'node:test';
import { API_ONLY, type Cluster, FLEETYARD_BIN, startCluster } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { pollUntil } from './testing/kubectl-fixtures.js';

let cluster: Cluster;
let k: Kubectl;
const managers: ChildProcess[] = [];

function startManager(): ChildProcess {
  const child = spawn(
    process.execPath,
    [
      FLEETYARD_BIN,
      'controllers',
      '--kubeconfig',
      cluster.kubeconfig,
      '--controllers=*',
      '--log-level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  managers.push(child);
  return child;
}

const stopped = (child: ChildProcess): Promise<number | null> =>
  new Promise((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', r)));

before(async () => {
  cluster = await startCluster({ ephemeral: true, args: API_ONLY });
  const found = kubectl('1.33', cluster.kubeconfig);
  assert.ok(found, 'kubectl.1.33 is needed');
  k = found;
});
after(async () => {
  for (const m of managers) if (m.exitCode === null) m.kill('SIGKILL');
  await cluster.stop();
  cluster.cleanup();
});

const holder = async (): Promise<string> =>
  k.ok([
    '-n',
    'kube-system',
    'get',
    'lease',
    'fleetyard-controller-manager',
    '-o',
    'jsonpath={.spec.holderIdentity}',
  ]);

it('two managers, one leader: the deployment rolls out once; the standby takes over', async () => {
  const first = startManager();
  const firstHolder = await pollUntil(
    'a leader',
    async () =>
      (await k.run(['-n', 'kube-system', 'get', 'lease', 'fleetyard-controller-manager'])).code ===
      0
        ? holder()
        : undefined,
    20_000,
  );
  startManager();
  await k.ok(['create', 'deployment', 'web', '--image=web:v1', '--replicas=3']);
  await k.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
  assert.equal(await holder(), firstHolder, 'the first manager still leads');
  const pods = (await k.ok(['get', 'pods', '-o', 'name'])).trim().split('\n');
  assert.equal(pods.length, 3, `pods created once: ${pods.join(', ')}`);

  first.kill('SIGTERM');
  assert.equal(await stopped(first), 0);
  const next = await pollUntil(
    'a new leader',
    async () => {
      const h = await holder();
      return h !== '' && h !== firstHolder ? h : undefined;
    },
    30_000,
  );
  assert.notEqual(next, firstHolder);
  await k.ok(['scale', 'deployment', 'web', '--replicas=5']);
  await k.ok(['rollout', 'status', 'deployment/web', '--timeout=60s'], { timeoutMs: 70_000 });
  const after = (await k.ok(['get', 'pods', '-o', 'name'])).trim().split('\n');
  assert.equal(after.length, 5);
});
