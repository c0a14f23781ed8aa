/**
 * The cluster clock as an API object and `fleetyard clock`, against a real
 * `fleetyard up --clock virtual` that starts paused (`--speed 0`) at a fixed time, so every
 * time it prints is exact: kubectl finds `clocks.sim.fleetyard.dev` in discovery, prints its
 * Table and YAML, patches it and is refused a delete; `fleetyard clock advance`/`until` move
 * the cluster through its timers (the node's Lease is renewed on the way) and return once it
 * is quiescent. A second cluster on the wall clock (`--clock real`, the default) refuses to be
 * driven.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { API_ONLY, FLEETYARD_BIN } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';
import {
  clusterForFile,
  describeKubectl,
  KUBECTL_VERSIONS,
  type KubeObject,
  lines,
} from './testing/kubectl-fixtures.js';

const START = '2026-01-01T00:00:00Z';
const virtual = clusterForFile({
  args: ['--clock=virtual', `--clock-start=${START}`, '--speed=0', '--nodes=1'],
});
const real = clusterForFile({ args: API_ONLY });

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `fleetyard clock <args>` as a user runs it (the built CLI). */
function fleetyardClock(kubeconfig: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [FLEETYARD_BIN, 'clock', ...args, '--kubeconfig', kubeconfig],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const clockTime = async (kubeconfig: string): Promise<string> => {
  const k = kubectl('1.33', kubeconfig);
  if (k === undefined) throw new Error('kubectl.1.33 is not installed');
  return k.ok(['get', 'clock', 'cluster', '-o', 'jsonpath={.status.time}']);
};

for (const version of KUBECTL_VERSIONS) {
  describeKubectl(version, virtual, (s) => {
    it('api-resources lists clocks, cluster-scoped', async () => {
      const out = lines(await s.k().ok(['api-resources', '--api-group=sim.fleetyard.dev']));
      assert.ok(
        out.some((l) => /^clocks\s+sim\.fleetyard\.dev\/v1alpha1\s+false\s+Clock$/.test(l)),
        out.join('\n'),
      );
    });

    it('get clock prints the Table; -o yaml the object', async () => {
      const table = lines(await s.k().ok(['get', 'clock']));
      assert.match(table[0] ?? '', /^NAME\s+TIME\s+SPEED\s+STATE\s+TIMERS\s+AGE$/);
      assert.match(table[1] ?? '', /^cluster\s+2026-01-01T\S+Z\s+0\s+Paused\s+\d+\s+\S+$/);
      const obj = parseYaml(
        await s.k().ok(['get', 'clock', 'cluster', '-o', 'yaml']),
      ) as KubeObject;
      assert.equal(obj.apiVersion, 'sim.fleetyard.dev/v1alpha1');
      assert.equal(obj.kind, 'Clock');
      assert.equal(obj.metadata.name, 'cluster');
      assert.deepEqual(obj.spec, { speed: '0', paused: false });
      assert.equal(obj.status?.mode, 'virtual');
      assert.equal(obj.status?.state, 'Paused');
    });

    it('patch sets the spec; a bad value is Invalid; delete is MethodNotAllowed', async () => {
      const patch = (p: object) =>
        s.k().run(['patch', 'clock', 'cluster', '--type=merge', '-p', JSON.stringify(p)]);
      const paused = await patch({ spec: { paused: true } });
      assert.equal(paused.code, 0, paused.stderr);
      assert.match(paused.stdout, /^clock\.sim\.fleetyard\.dev\/cluster patched/);
      const spec = JSON.parse(
        await s.k().ok(['get', 'clock', 'cluster', '-o', 'jsonpath={.spec}']),
      ) as Record<string, unknown>;
      assert.deepEqual(spec, { speed: '0', paused: true });
      assert.equal((await patch({ spec: { paused: false } })).code, 0);
      const bad = await patch({ spec: { speed: 'fast' } });
      assert.equal(bad.code, 1);
      assert.equal(
        bad.stderr,
        'The Clock "cluster" is invalid: spec.speed: Invalid value: "fast": must be a number >= 0 or "max"\n',
      );
      const del = await s.k().run(['delete', 'clock', 'cluster']);
      assert.equal(del.code, 1);
      assert.equal(
        del.stderr,
        'Error from server (MethodNotAllowed): the server does not allow this method on the requested resource\n',
      );
    });
  });
}

describe('fleetyard clock on a virtual clock', () => {
  it('show prints the paused clock', async () => {
    const r = await fleetyardClock(virtual().kubeconfig, 'show');
    assert.equal(r.code, 0, r.stderr);
    const out = lines(r.stdout);
    assert.equal(out[0], 'time:      2026-01-01T00:00:00.000Z');
    assert.equal(out[1], 'speed:     0');
    assert.equal(out[2], 'state:     Paused');
    assert.equal(out[5], 'mode:      virtual');
  });

  it('advance runs the cluster through 15 minutes of timers', async () => {
    const { kubeconfig } = virtual();
    const r = await fleetyardClock(kubeconfig, 'advance', '15m');
    assert.deepEqual(r, {
      code: 0,
      stdout: 'clock advanced to 2026-01-01T00:15:00.000Z\n',
      stderr: '',
    });
    // At speed 0 again once there: time stays where the advance left it.
    assert.equal(await clockTime(kubeconfig), '2026-01-01T00:15:00.000Z');
    // The simulated kubelet renewed its node's Lease on the way (every 10 s by default).
    const k = kubectl('1.33', kubeconfig);
    const leases = JSON.parse(
      (await k?.ok(['get', 'leases', '-n', 'kube-node-lease', '-o', 'json'])) ?? '{}',
    ) as { items: { spec: { renewTime?: string } }[] };
    const renewed = leases.items.map((l) => l.spec.renewTime ?? '');
    assert.ok(
      renewed.length > 0 && renewed.every((t) => t >= '2026-01-01T00:14:00'),
      renewed.join(', '),
    );
  });

  it('until refuses a time in the past and runs to one ahead', async () => {
    const { kubeconfig } = virtual();
    const past = await fleetyardClock(kubeconfig, 'until', '2026-01-01T00:10:00Z');
    assert.equal(past.code, 1);
    assert.equal(
      past.stderr,
      "error: 2026-01-01T00:10:00.000Z is before the cluster's time (2026-01-01T00:15:00.000Z): time does not run backwards\n",
    );
    const ahead = await fleetyardClock(kubeconfig, 'until', '2026-01-01T01:00:00Z');
    assert.deepEqual(ahead, {
      code: 0,
      stdout: 'clock advanced to 2026-01-01T01:00:00.000Z\n',
      stderr: '',
    });
  });

  it('speed, pause and resume change what kubectl shows', async () => {
    const { kubeconfig } = virtual();
    const speed = await fleetyardClock(kubeconfig, 'speed', '60');
    assert.equal(speed.code, 0, speed.stderr);
    assert.match(speed.stdout, /^clock speed set to 60 at 2026-01-01T01:\S+Z\n$/);
    const paused = await fleetyardClock(kubeconfig, 'pause');
    assert.match(paused.stdout, /^clock paused at (2026-01-01T\S+Z)\n$/);
    const at = /at (\S+)\n/.exec(paused.stdout)?.[1];
    assert.equal(await clockTime(kubeconfig), at, 'a paused clock stands still');
    const resumed = await fleetyardClock(kubeconfig, 'resume');
    assert.match(resumed.stdout, /^clock resumed at \S+ \(speed 60\)\n$/);
    const back = await fleetyardClock(kubeconfig, 'speed', '0');
    assert.equal(back.code, 0, back.stderr);
  });
});

describe('fleetyard clock on the wall clock', () => {
  it('shows the real clock and refuses to drive it', async () => {
    const { kubeconfig } = real();
    const show = await fleetyardClock(kubeconfig, 'show');
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /^mode: {6}real$/m);
    const r = await fleetyardClock(kubeconfig, 'speed', '2');
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Error from server (Invalid): Clock.sim.fleetyard.dev "cluster" is invalid: spec.speed: Forbidden: the cluster runs on the wall clock (fleetyard up --clock real): its speed cannot change\n',
    );
  });
});
