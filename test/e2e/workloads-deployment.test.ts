/**
 * Deployments on a running `fleetyard up`: a RollingUpdate watched pod by pod through a
 * client-node informer, checking the surge and unavailability bounds at every observed step;
 * `kubectl rollout status|history|undo|restart|pause|resume`; Recreate never running old and
 * new pods together; and an unpullable image ending in `ProgressDeadlineExceeded`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { makeInformer, type V1Pod } from '@kubernetes/client-node';
import * as support from './testing/client-node-harness.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

interface Deployment {
  metadata: { name: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
  status?: {
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    conditions?: { type: string; status: string; reason: string; message: string }[];
  };
}

function deployment(name: string, spec: Record<string, unknown>, image = 'web:v1'): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas: 4,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          terminationGracePeriodSeconds: 0,
          containers: [{ name: 'web', image }],
        },
      },
      ...spec,
    },
  };
}

const isReady = (p: V1Pod): boolean =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const live = (p: V1Pod): boolean => p.metadata?.deletionTimestamp === undefined;
const imageOf = (p: V1Pod): string => p.spec?.containers[0]?.image ?? '';

describe('deployments', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const ns = 'deploy-e2e';
  const kc = (...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const apply = (obj: object) =>
    k.ok(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify(obj) });
  const read = async (name: string): Promise<Deployment> =>
    JSON.parse(await kc('get', 'deployment', name, '-o', 'json')) as Deployment;

  before(async () => {
    h = await support.startHarness();
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed for the deployment tests');
    k = found;
    await support.createNamespace(h, ns);
  });
  after(() => support.stopHarness(h));

  /** Watches the namespace's pods with `app=<name>` and calls `check` after every event. */
  async function watchPods(name: string, check: (pods: readonly V1Pod[]) => void) {
    const list = () => h!.core.listNamespacedPod({ namespace: ns, labelSelector: `app=${name}` });
    const informer = makeInformer(h!.kc, `/api/v1/namespaces/${ns}/pods`, list, `app=${name}`);
    const violations: string[] = [];
    // The initial list arrives as one add per pod: judge only complete views.
    let listed = false;
    const onChange = () => {
      if (!listed) return;
      try {
        check(informer.list());
      } catch (err) {
        violations.push((err as Error).message);
      }
    };
    informer.on('add', onChange);
    informer.on('update', onChange);
    informer.on('delete', onChange);
    await informer.start();
    listed = true;
    onChange();
    return {
      pods: () => informer.list(),
      violations,
      stop: () => informer.stop(),
    };
  }

  it('RollingUpdate stays within maxSurge and maxUnavailable at every observed step', async () => {
    const replicas = 4;
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } };
    await apply(deployment('roll', { replicas, strategy }));
    await kc('rollout', 'status', 'deployment/roll', '--timeout=60s');
    let maxLive = 0;
    let minAvailable = Number.POSITIVE_INFINITY;
    const w = await watchPods('roll', (pods) => {
      const running = pods.filter(live);
      maxLive = Math.max(maxLive, running.length);
      minAvailable = Math.min(minAvailable, running.filter(isReady).length);
      assert.ok(running.length <= replicas + 1, `${running.length} pods > replicas + maxSurge`);
      const available = running.filter(isReady).length;
      assert.ok(available >= replicas - 1, `${available} available < replicas - maxUnavailable`);
    });
    try {
      await apply(deployment('roll', { replicas, strategy }, 'web:v2'));
      const status = await kc('rollout', 'status', 'deployment/roll', '--timeout=60s');
      assert.match(status, /deployment "roll" successfully rolled out/);
      await support.waitFor('only v2 pods', () => {
        const pods = w.pods().filter(live);
        return pods.length === replicas && pods.every((p) => imageOf(p) === 'web:v2' && isReady(p));
      });
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
    assert.ok(maxLive >= replicas, 'the watch saw the rollout');
    const rs = await kc(
      'get',
      'rs',
      '-l',
      'app=roll',
      '-o',
      'custom-columns=REV:.metadata.annotations.deployment\\.kubernetes\\.io/revision,DESIRED:.spec.replicas',
      '--no-headers',
    );
    assert.deepEqual(
      rs
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .sort(),
      [
        ['1', '0'],
        ['2', '4'],
      ],
    );
    const d = await read('roll');
    const progressing = d.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.equal(progressing?.reason, 'NewReplicaSetAvailable');
    assert.equal(
      progressing?.message,
      `ReplicaSet "${'roll'}-${await kc('get', 'rs', '-l', 'app=roll', '-o', 'jsonpath={.items[?(@.spec.replicas==4)].metadata.labels.pod-template-hash}')}" has successfully progressed.`,
    );
    const available = d.status?.conditions?.find((c) => c.type === 'Available');
    assert.deepEqual([available?.status, available?.reason], ['True', 'MinimumReplicasAvailable']);
  });

  it('rollout history, undo, restart, pause and resume', async () => {
    const history = await kc('rollout', 'history', 'deployment/roll');
    assert.match(history, /REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    await kc('rollout', 'undo', 'deployment/roll');
    await kc('rollout', 'status', 'deployment/roll', '--timeout=60s');
    const afterUndo = await read('roll');
    const template = afterUndo.spec.template as { spec: { containers: { image: string }[] } };
    assert.equal(template.spec.containers[0]!.image, 'web:v1');
    assert.equal(afterUndo.metadata.annotations?.['deployment.kubernetes.io/revision'], '3');
    assert.match(await kc('rollout', 'history', 'deployment/roll'), /\n2\s+<none>\n3\s+<none>/);

    await kc('rollout', 'pause', 'deployment/roll');
    await kc('set', 'image', 'deployment/roll', 'web=web:v3');
    await support.waitFor('Progressing reason DeploymentPaused', async () => {
      const d = await read('roll');
      return d.status?.conditions?.some((c) => c.reason === 'DeploymentPaused') ?? false;
    });
    const rsCount = (await kc('get', 'rs', '-l', 'app=roll', '--no-headers')).trim().split('\n');
    assert.equal(rsCount.length, 2, 'a paused deployment makes no new ReplicaSet');
    await kc('rollout', 'resume', 'deployment/roll');
    await kc('rollout', 'status', 'deployment/roll', '--timeout=60s');
    await kc('rollout', 'restart', 'deployment/roll');
    await kc('rollout', 'status', 'deployment/roll', '--timeout=60s');
    const d = await read('roll');
    const restartedAt = (d.spec.template as { metadata: { annotations?: Record<string, string> } })
      .metadata.annotations?.['kubectl.kubernetes.io/restartedAt'];
    assert.ok(restartedAt, 'restart stamps the template');
    assert.equal(d.metadata.annotations?.['deployment.kubernetes.io/revision'], '5');
  });

  it('Recreate never runs old and new pods together', async () => {
    const strategy = { type: 'Recreate' };
    await apply(deployment('recreate', { replicas: 3, strategy }));
    await kc('rollout', 'status', 'deployment/recreate', '--timeout=60s');
    const w = await watchPods('recreate', (pods) => {
      const images = new Set(pods.map(imageOf));
      assert.ok(images.size <= 1, `old and new pods together: ${[...images].join(', ')}`);
    });
    try {
      await apply(deployment('recreate', { replicas: 3, strategy }, 'web:v2'));
      await kc('rollout', 'status', 'deployment/recreate', '--timeout=60s');
      await support.waitFor('three v2 pods', () => {
        const pods = w.pods();
        return pods.length === 3 && pods.every((p) => imageOf(p) === 'web:v2' && isReady(p));
      });
    } finally {
      await w.stop();
    }
    assert.deepEqual(w.violations, []);
  });

  it('delete --cascade=foreground returns once the ReplicaSets and pods are gone', async () => {
    await kc('delete', 'deployment', 'recreate', '--cascade=foreground', '--timeout=60s');
    assert.equal(await kc('get', 'rs,pods', '-l', 'app=recreate', '-o', 'name'), '');
  });

  it('an unpullable image ends in ProgressDeadlineExceeded and rollout status fails', async () => {
    await apply(
      deployment('stuck', { replicas: 2, progressDeadlineSeconds: 2 }, 'web:nonexistent'),
    );
    const r = await k.run(['-n', ns, 'rollout', 'status', 'deployment/stuck', '--timeout=30s']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error: deployment "stuck" exceeded its progress deadline/);
    const d = await read('stuck');
    const progressing = d.status?.conditions?.find((c) => c.type === 'Progressing');
    assert.equal(progressing?.status, 'False');
    assert.equal(progressing?.reason, 'ProgressDeadlineExceeded');
    assert.match(
      progressing?.message ?? '',
      /^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/,
    );
    const pods = await h!.core.listNamespacedPod({ namespace: ns, labelSelector: 'app=stuck' });
    const waiting = pods.items.map((p) => p.status?.containerStatuses?.[0]?.state?.waiting?.reason);
    for (const reason of waiting)
      assert.ok(reason === 'ErrImagePull' || reason === 'ImagePullBackOff', String(reason));
  });
});
