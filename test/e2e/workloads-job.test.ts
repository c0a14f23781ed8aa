/**
 * batch/v1 Jobs on `fleetyard up --clock virtual --speed 0` (paused at a fixed start, moved by
 * `fleetyard clock advance`), driven by kubectl 1.33: `kubectl create job` (a protobuf body)
 * gets the generated selector and labels and runs to Complete (the simulated kubelet ends a
 * Job's pods with exit code 0 unless told otherwise); a YAML Job with completions 3 and
 * parallelism 2 reaches Complete (`kubectl wait --for=condition=complete`); an Indexed Job
 * whose index 1 exits 1 with backoffLimitPerIndex 0 ends Failed with `failedIndexes: "1"`; and
 * a finished Job with `ttlSecondsAfterFinished: 600` is deleted by the TTL-after-finished
 * controller exactly when ten minutes of cluster time have passed. Pod outcomes come from the
 * simulated kubelet's `sim.fleetyard.dev/exit-code` and `exit-after` annotations.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';
import { clusterForFile, lines, pollUntil } from './testing/kubectl-fixtures.js';

const cluster = clusterForFile({
  args: ['--clock=virtual', '--clock-start=2026-01-01T00:00:00Z', '--speed=0', '--nodes=2'],
});
const run = promisify(execFile);

const EXIT_CODE = 'sim.fleetyard.dev/exit-code';
const EXIT_AFTER = 'sim.fleetyard.dev/exit-after';

async function advance(duration: string): Promise<void> {
  const args = [FLEETYARD_BIN, 'clock', 'advance', duration, '--kubeconfig', cluster().kubeconfig];
  const { stdout } = await run(process.execPath, args, { timeout: 60_000 });
  assert.match(stdout, /^clock advanced to /);
}

interface Job {
  readonly metadata: {
    readonly name: string;
    readonly labels?: Record<string, string>;
    readonly uid: string;
  };
  readonly spec: {
    readonly selector?: unknown;
    readonly template: { readonly metadata?: { readonly labels?: Record<string, string> } };
  };
  readonly status?: {
    readonly succeeded?: number;
    readonly failed?: number;
    readonly completedIndexes?: string;
    readonly failedIndexes?: string;
    readonly completionTime?: string;
    readonly conditions?: {
      readonly type: string;
      readonly status: string;
      readonly reason?: string;
    }[];
  };
}

function jobManifest(
  name: string,
  spec: Record<string, unknown>,
  annotations?: Record<string, string>,
): string {
  return JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: {
      ...spec,
      template: {
        metadata: annotations === undefined ? {} : { annotations },
        spec: { restartPolicy: 'Never', containers: [{ name: 'work', image: 'busybox' }] },
      },
    },
  });
}

describe('batch/v1 Jobs with kubectl 1.33', () => {
  const k = () => {
    const bin = kubectl('1.33', cluster().kubeconfig);
    assert.ok(bin, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    return bin;
  };
  const getJob = async (name: string): Promise<Job> =>
    JSON.parse(await k().ok(['-n', 'jobs', 'get', 'job', name, '-o', 'json'])) as Job;

  it('kubectl create job: generated selector and labels, Complete once its pod exits 0', async () => {
    await k().ok(['create', 'namespace', 'jobs']);
    await k().ok(['-n', 'jobs', 'create', 'job', 'pi', '--image=busybox']);
    const job = await getJob('pi');
    const uid = job.metadata.uid;
    assert.deepEqual(job.spec.selector, {
      matchLabels: { 'batch.kubernetes.io/controller-uid': uid },
    });
    assert.deepEqual(job.spec.template.metadata?.labels, {
      'batch.kubernetes.io/controller-uid': uid,
      'batch.kubernetes.io/job-name': 'pi',
      'controller-uid': uid,
      'job-name': 'pi',
    });
    await k().ok(['-n', 'jobs', 'wait', '--for=condition=complete', 'job/pi', '--timeout=20s']);
    // Counted, so the pod is free of the tracking finalizer.
    const pods = await k().ok(['-n', 'jobs', 'get', 'pods', '-l', 'job-name=pi', '-o', 'json']);
    const items = (JSON.parse(pods) as { items: { metadata: { finalizers?: string[] } }[] }).items;
    assert.equal(items.length, 1);
    assert.deepEqual(items[0]?.metadata.finalizers ?? [], []);
    const table = lines(await k().ok(['-n', 'jobs', 'get', 'job', 'pi']));
    assert.match(table[0] ?? '', /^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/);
    assert.match(table[1] ?? '', /^pi\s+Complete\s+1\/1\s+/);
  });

  it('a YAML Job with completions 3 and parallelism 2 reaches Complete', async () => {
    await k().ok(['-n', 'jobs', 'apply', '-f', '-'], {
      input: jobManifest('three', { completions: 3, parallelism: 2 }),
    });
    await k().ok(['-n', 'jobs', 'wait', '--for=condition=complete', 'job/three', '--timeout=20s']);
    const job = await getJob('three');
    assert.equal(job.status?.succeeded, 3);
    assert.equal(job.status?.failed, undefined);
    const pods = lines(
      await k().ok(['-n', 'jobs', 'get', 'pods', '-l', 'job-name=three', '-o', 'name']),
    );
    assert.equal(pods.length, 3);
  });

  it('an Indexed Job whose index 1 fails ends Failed with failedIndexes', async () => {
    await k().ok(['-n', 'jobs', 'apply', '-f', '-'], {
      input: jobManifest(
        'shards',
        {
          completionMode: 'Indexed',
          completions: 3,
          parallelism: 3,
          backoffLimitPerIndex: 0,
        },
        { [EXIT_AFTER]: '1h' },
      ),
    });
    for (const ix of ['0', '1', '2']) {
      const selector = `job-name=shards,batch.kubernetes.io/job-completion-index=${ix}`;
      const pod = await pollUntil(
        `the pod of index ${ix}`,
        async () =>
          lines(await k().ok(['-n', 'jobs', 'get', 'pods', '-l', selector, '-o', 'name']))[0],
      );
      const code = ix === '1' ? '1' : '0';
      await k().ok([
        '-n',
        'jobs',
        'annotate',
        '--overwrite',
        pod,
        `${EXIT_CODE}=${code}`,
        `${EXIT_AFTER}=0s`,
      ]);
    }
    await k().ok(['-n', 'jobs', 'wait', '--for=condition=failed', 'job/shards', '--timeout=20s']);
    const job = await getJob('shards');
    assert.equal(job.status?.completedIndexes, '0,2');
    assert.equal(job.status?.failedIndexes, '1');
    const failed = job.status?.conditions?.find((c) => c.type === 'Failed');
    assert.equal(failed?.reason, 'FailedIndexes');
  });

  it('deletes a finished Job ttlSecondsAfterFinished later, on cluster time', async () => {
    await k().ok(['-n', 'jobs', 'apply', '-f', '-'], {
      input: jobManifest('short-lived', { ttlSecondsAfterFinished: 600 }),
    });
    await k().ok([
      '-n',
      'jobs',
      'wait',
      '--for=condition=complete',
      'job/short-lived',
      '--timeout=20s',
    ]);
    const exists = async (): Promise<boolean> =>
      (await k().run(['-n', 'jobs', 'get', 'job', 'short-lived'])).code === 0;
    await advance('9m');
    assert.ok(await exists(), 'deleted before its TTL passed');
    await advance('2m');
    await pollUntil('job short-lived to be deleted', async () =>
      (await exists()) ? undefined : true,
    );
    // Foreground deletion: the Job went after its pods.
    const pods = await k().ok([
      '-n',
      'jobs',
      'get',
      'pods',
      '-l',
      'job-name=short-lived',
      '-o',
      'name',
    ]);
    assert.deepEqual(lines(pods), []);
  });
});
