/**
 * A HorizontalPodAutoscaler on a Deployment, as a user drives it on the virtual clock:
 * `fleetyard up --clock virtual --speed 0`, a Deployment requesting 100m CPU per pod whose
 * simulated usage is 150m (the `sim.fleetyard.dev/cpu-usage` pod annotation the Metrics API
 * reads), and an autoscaling/v2 HPA at 50 % utilization applied with kubectl. One minute of
 * virtual time scales it up (doubling per sync, to maxReplicas 6); after the usage drops to
 * 10m the count holds for the 5-minute scale-down stabilization window, then falls to 2.
 * Every wait is `fleetyard clock advance`, so it takes seconds of wall time.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';
import { clusterForFile } from './testing/kubectl-fixtures.js';

const run = promisify(execFile);
const USAGE = 'sim.fleetyard.dev/cpu-usage';
const cluster = clusterForFile({
  args: [
    '--clock=virtual',
    '--clock-start=2026-01-01T00:00:00Z',
    '--speed=0',
    '--nodes=1',
    '--seed=1',
  ],
});

const advance = async (d: string): Promise<void> => {
  await run(
    process.execPath,
    [FLEETYARD_BIN, 'clock', 'advance', d, '--kubeconfig', cluster().kubeconfig],
    {
      timeout: 60_000,
    },
  );
};

const MANIFEST = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata:
      labels: {app: web}
      annotations: {${USAGE}: 150m}
    spec:
      containers:
      - name: main
        image: nginx
        resources: {requests: {cpu: 100m}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: default}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 1
  maxReplicas: 6
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
`;

interface HpaJson {
  status?: {
    desiredReplicas?: number;
    currentMetrics?: { resource?: { current?: { averageUtilization?: number } } }[];
    conditions?: { type: string; status: string; reason: string }[];
  };
}

describe('HorizontalPodAutoscaler on the virtual clock', () => {
  it('scales a Deployment up with its usage, and down only after the stabilization window', async (t) => {
    const k = kubectl('1.33', cluster().kubeconfig);
    assert.ok(k, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    const served = await k.run(['get', '--raw', '/apis/metrics.k8s.io/v1beta1']);
    if (served.code !== 0) {
      t.skip(`the Metrics API is not served yet (${served.stderr.trim()})`);
      return;
    }
    await k.ok(['apply', '-f', '-'], { input: MANIFEST });
    const replicas = async () =>
      Number(await k.ok(['get', 'deployment', 'web', '-o', 'jsonpath={.spec.replicas}']));
    const hpa = async (): Promise<HpaJson> =>
      JSON.parse(await k.ok(['get', 'hpa', 'web', '-o', 'json'])) as HpaJson;
    const reason = (h: HpaJson, type: string) =>
      h.status?.conditions?.find((c) => c.type === type)?.reason;

    // 150 % of requests against 50 %: ×3 wanted, at most ×2 per sync without behavior, max 6.
    await advance('1m');
    assert.equal(await replicas(), 6);
    const up = await hpa();
    assert.equal(up.status?.desiredReplicas, 6);
    assert.equal(reason(up, 'ScalingActive'), 'ValidMetricFound');
    const events = await k.ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.kind=HorizontalPodAutoscaler,reason=SuccessfulRescale',
      '-o',
      'jsonpath={.items[*].message}',
    ]);
    assert.match(
      events,
      /New size: 4; reason: cpu resource utilization \(percentage of request\) above target/,
    );

    // 10 % now: the HPA wants 2, but holds 6 for the 5-minute window.
    await k.ok(['annotate', 'pods', '-l', 'app=web', `${USAGE}=10m`, '--overwrite']);
    await advance('1m');
    assert.equal(await replicas(), 6);
    const held = await hpa();
    assert.equal(reason(held, 'AbleToScale'), 'ScaleDownStabilized');
    assert.equal(held.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization, 10);

    await advance('5m');
    assert.equal(await replicas(), 2);
    assert.equal((await hpa()).status?.desiredReplicas, 2);
  });
});
