/**
 * Install manifests of widely used projects, applied with default kubectl as their READMEs say
 * (`kubectl apply -f components.yaml`, `kubectl apply -f deploy.yaml`), and a Job-plus-CronJob
 * backup of our own (`examples/backup/backup.yaml`): every object is accepted, the workloads
 * reach Ready and the Jobs complete, on the virtual clock so probe delays and the nightly
 * schedule pass in seconds.
 *
 * The simulation runs no container code. ingress-nginx's controller mounts the Secret its
 * `admission-create` Job (kube-webhook-certgen) would write; the test writes it, as that Job
 * would, once the Job has completed.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { clusterForFile, pollUntil } from './testing/kubectl-fixtures.js';

const run = promisify(execFile);
const MANIFESTS = 'test/e2e/testdata/manifests';
const cluster = clusterForFile({
  args: ['--clock=virtual', '--clock-start=2026-01-01T00:00:00Z', '--nodes=3'],
});

const fleetyard = async (...args: string[]): Promise<string> =>
  (
    await run(process.execPath, [FLEETYARD_BIN, ...args, '--kubeconfig', cluster().kubeconfig], {
      timeout: 60_000,
    })
  ).stdout;

let client: Kubectl | undefined;
function k(): Kubectl {
  client ??= kubectl('1.33', cluster().kubeconfig);
  assert.ok(client, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
  return client;
}

async function readyReplicas(ns: string, deployment: string): Promise<number> {
  const out = await k().ok([
    'get',
    'deployment',
    deployment,
    '-n',
    ns,
    '-o',
    'jsonpath={.status.readyReplicas}',
  ]);
  return Number(out || '0');
}

describe('install manifests apply and run', () => {
  it('metrics-server v0.7.0 components.yaml: applied, its Deployment Ready, kubectl top works', async () => {
    const out = await k().ok(['apply', '-f', `${MANIFESTS}/metrics-server-components.yaml`]);
    assert.match(
      out,
      /apiservice\.apiregistration\.k8s\.io\/v1beta1\.metrics\.k8s\.io (created|configured)/,
    );
    await fleetyard('clock', 'advance', '1m');
    await pollUntil('metrics-server ready', async () =>
      (await readyReplicas('kube-system', 'metrics-server')) === 1 ? true : undefined,
    );
    const top = await k().ok(['top', 'nodes']);
    assert.match(top, /CPU\(cores\)/);
  });

  it('ingress-nginx v1.15.1 cloud deploy.yaml: Jobs complete, the controller is Ready', async () => {
    const out = await k().ok(['apply', '-f', `${MANIFESTS}/ingress-nginx-cloud.yaml`]);
    assert.match(out, /ingressclass\.networking\.k8s\.io\/nginx created/);
    assert.match(
      out,
      /validatingwebhookconfiguration\.admissionregistration\.k8s\.io\/ingress-nginx-admission created/,
    );
    // ttlSecondsAfterFinished: 0: a Job that finished is deleted by the TTL controller.
    for (const job of ['ingress-nginx-admission-create', 'ingress-nginx-admission-patch']) {
      await pollUntil(`${job} finished and collected`, async () => {
        const r = await k().run(['get', 'job', job, '-n', 'ingress-nginx']);
        return r.code !== 0 && /NotFound/.test(r.stderr) ? true : undefined;
      });
    }
    await k().ok([
      'create',
      'secret',
      'generic',
      'ingress-nginx-admission',
      '-n',
      'ingress-nginx',
      '--from-literal=ca=ca',
      '--from-literal=cert=cert',
      '--from-literal=key=key',
    ]);
    await fleetyard('clock', 'advance', '1m');
    await pollUntil('ingress-nginx controller ready', async () =>
      (await readyReplicas('ingress-nginx', 'ingress-nginx-controller')) === 1 ? true : undefined,
    );
  });

  it('the backup example: the prepare Job completes and the nightly CronJob runs at 02:30', async () => {
    await k().ok(['apply', '-f', 'examples/backup/backup.yaml']);
    await k().ok([
      'wait',
      '--for=condition=complete',
      'job/backup-prepare',
      '-n',
      'backup',
      '--timeout=60s',
    ]);
    await fleetyard('clock', 'advance', '3h');
    const jobs = await pollUntil('the 02:30 run', async () => {
      const names = await k().ok(['get', 'jobs', '-n', 'backup', '-o', 'name']);
      return names.includes('job.batch/nightly-backup-') ? names : undefined;
    });
    // <cronjob>-<scheduled time in minutes since the epoch>: 2026-01-01T02:30Z.
    assert.match(jobs, new RegExp(`nightly-backup-${Date.parse('2026-01-01T02:30:00Z') / 60_000}`));
  });
});
