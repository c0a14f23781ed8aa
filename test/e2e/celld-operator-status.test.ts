/**
 * What a user and an autoscaler read off a CelldFleet, on a real `fleetyard up --nodes 6`
 * with kubectl 1.33 (issue 14 items 10 and 11):
 * - `kubectl apply` of a fleet missing a required field prints that one error on stderr, not
 *   a CEL rule's `no such key: … evaluating rule …` beside it;
 * - a stray pod that matches the fleet's selector (as a debug pod that copies the labels
 *   does) changes neither `.status.replicas` nor the `/scale` subresource an HPA reads, for a
 *   PersistentFleet (StatefulSet) and a Bucket fleet (Deployment);
 * - during a scale-in the Ready condition never reads "5 of 4 members ready": it counts the
 *   members the fleet keeps and names the one still to be removed, and it is not True while a
 *   kept member is down behind the ready member that is about to go.
 * Item 9 (a Lost claim beside an Unschedulable member) takes the scheduler's retries and the
 * node-loss timers, so it is covered on the fake clock in
 * `src/operator/controller/lost-beside-unschedulable.test.ts`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  apply,
  condition,
  type FleetEnv,
  fleet,
  fleetEnvForFile,
  getFleet,
  LABEL_FLEET,
  LABEL_FLEET_UID,
  type Manifest,
  patchFleet,
  serviceAccount,
  waitFleet,
  waitReady,
} from './testing/celld-fixtures.js';
import { pollUntil } from './testing/kubectl-fixtures.js';

const NS = 'default';
const READY_ANNOTATION = 'sim.fleetyard.dev/ready';
const PAUSED =
  'Workload changes suspended: maintenance.paused is set, so nothing is written and no member is healed';

const env = fleetEnvForFile(['--nodes=6', '--zones=a,b,c']);

/** A pod that copies the fleet's labels but that no workload owns. */
function strayPod(name: string, fleetName: string, fleetUid: string): Manifest {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: NS,
      labels: { [LABEL_FLEET]: fleetName, [LABEL_FLEET_UID]: fleetUid },
    },
    spec: { containers: [{ name: 'debug', image: 'busybox:1.36' }] } as Record<string, unknown>,
  } as Manifest;
}

async function jsonpath(e: FleetEnv, args: string[], path: string): Promise<string> {
  return e.k.ok([...args, '-n', NS, '-o', `jsonpath={${path}}`]);
}

/** `.status.replicas` of the fleet and of its `/scale`, and how many pods its selector matches. */
async function counts(e: FleetEnv, name: string) {
  const selector = await jsonpath(e, ['get', 'cf', name], '.status.labelSelector');
  const matched = await e.k.ok(['get', 'pods', '-n', NS, '-l', selector, '-o', 'name']);
  return {
    status: await jsonpath(e, ['get', 'cf', name], '.status.replicas'),
    scale: await jsonpath(e, ['get', 'cf', name, '--subresource=scale'], '.status.replicas'),
    scaleSpec: await jsonpath(e, ['get', 'cf', name, '--subresource=scale'], '.spec.replicas'),
    matched: matched.split('\n').filter(Boolean).length,
  };
}

/**
 * Starts a stray pod beside a Ready fleet, then scales the fleet by one: the status that
 * reports the new generation was computed with the stray pod in the operator's cache, so
 * reading it afterwards cannot pass by being early.
 */
async function strayThenScale(e: FleetEnv, name: string, replicas: number): Promise<void> {
  const uid = (await getFleet(e, NS, name)).metadata.uid;
  await apply(e, strayPod(`${name}-debug`, name, uid));
  await e.k.ok(['wait', '--for=condition=Ready', `pod/${name}-debug`, '-n', NS], {
    timeoutMs: 30_000,
  });
  await e.k.ok(['scale', 'cf', name, '-n', NS, `--replicas=${replicas}`]);
  await waitReady(e, NS, name, 30_000);
}

describe('fleet status as a user and an autoscaler read it', () => {
  it('kubectl apply of a fleet missing a required field prints only that error', async () => {
    const e = env();
    const base = fleet({ name: 'nowhere', namespace: NS, bucket: 'nowhere-data', replicas: 3 });
    const spec = base.spec as Record<string, unknown>;
    const { placement: _p, ...noPlacement } = spec;
    const { profile: _f, ...noProfile } = spec;
    const { storage: _s, ...noStorage } = spec;
    const cases: [string, Record<string, unknown>][] = [
      ['spec.placement', noPlacement],
      ['spec.placement.zones', { ...spec, placement: { mode: 'Strict' } }],
      ['spec.profile', noProfile],
      ['spec.storage', noStorage],
    ];
    for (const [field, bad] of cases) {
      const r = await e.k.run(['apply', '-f', '-'], {
        input: JSON.stringify({ ...base, spec: bad }),
      });
      assert.notEqual(r.code, 0, `${field}: applied`);
      assert.equal(
        r.stderr.trim(),
        `The CelldFleet "nowhere" is invalid: ${field}: Required value`,
        `${field}: stderr`,
      );
    }
  });

  it('a stray pod matching the selector changes neither status.replicas nor /scale (StatefulSet)', async () => {
    const e = env();
    await apply(
      e,
      serviceAccount('tally-celld', NS),
      fleet({ name: 'tally', namespace: NS, bucket: 'tally-data', replicas: 3 }),
    );
    await waitReady(e, NS, 'tally', 30_000);
    await strayThenScale(e, 'tally', 4);
    assert.deepEqual(await counts(e, 'tally'), {
      status: '4',
      scale: '4',
      scaleSpec: '4',
      matched: 5,
    });
  });

  it('a stray pod matching the selector changes neither status.replicas nor /scale (Deployment)', async () => {
    const e = env();
    await apply(
      e,
      serviceAccount('abacus-celld', NS),
      fleet({
        name: 'abacus',
        namespace: NS,
        bucket: 'abacus-data',
        replicas: 3,
        profile: 'Bucket',
      }),
    );
    await waitReady(e, NS, 'abacus', 30_000);
    await strayThenScale(e, 'abacus', 4);
    assert.deepEqual(await counts(e, 'abacus'), {
      status: '4',
      scale: '4',
      scaleSpec: '4',
      matched: 5,
    });
  });

  it('the Ready message during a scale-in counts the members kept and names the one to go', async () => {
    const e = env();
    // tally has 4 members (and the stray pod) from above.
    await patchFleet(e, NS, 'tally', { maintenance: { paused: true } });
    await waitFleet(e, NS, 'tally', 'Paused', (f) => f.status?.state === 'Paused');
    await e.k.ok(['scale', 'cf', 'tally', '-n', NS, '--replicas=3']);
    const paused = await waitFleet(
      e,
      NS,
      'tally',
      'Paused at 3',
      (f) => f.status?.state === 'Paused' && f.spec.replicas === 3,
    );
    assert.deepEqual(condition(paused, 'Ready'), {
      ...condition(paused, 'Ready'),
      status: 'False',
      message: `3 of 3 members ready, 1 more pending removal: ${PAUSED}`,
    });

    // A kept member goes down before the scale-in can proceed: the ready member that is about
    // to go must not make up for it.
    await e.k.ok(['annotate', 'pod', 'tally-1', '-n', NS, `${READY_ANNOTATION}=false`]);
    await pollUntil('tally-1 unready', async () => {
      const p = JSON.parse(await e.k.ok(['get', 'pod', 'tally-1', '-n', NS, '-o', 'json'])) as {
        status?: { conditions?: { type: string; status: string }[] };
      };
      return p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False')
        ? true
        : undefined;
    });
    await patchFleet(e, NS, 'tally', { maintenance: { paused: false } });
    const waiting = await waitFleet(e, NS, 'tally', 'scale-in waiting on member 1', (f) =>
      /^2 of 3 members ready, 1 more pending removal: /.test(condition(f, 'Ready')?.message ?? ''),
    );
    assert.equal(condition(waiting, 'Ready')?.status, 'False');
    assert.equal(waiting.status?.state, 'Progressing');

    await e.k.ok(['annotate', 'pod', 'tally-1', '-n', NS, `${READY_ANNOTATION}-`]);
    const done = await waitReady(e, NS, 'tally', 30_000);
    assert.equal(condition(done, 'Ready')?.message, '3 of 3 members ready');
    await pollUntil('tally-3 gone', async () => {
      const r = await e.k.run(['get', 'pod', 'tally-3', '-n', NS]);
      return r.code !== 0 ? true : undefined;
    });
    await waitFleet(e, NS, 'tally', 'replicas 3', (f) => f.status?.replicas === 3);
    assert.deepEqual(await counts(e, 'tally'), {
      status: '3',
      scale: '3',
      scaleSpec: '3',
      matched: 4,
    });
  });
});
