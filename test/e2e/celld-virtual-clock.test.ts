/**
 * The README's walk-through of the virtual clock, as a user runs it: `fleetyard up --clock
 * virtual --nodes 6 --seed 1` (paused at a fixed start here, so every time is exact), the celld
 * example applied with kubectl, `fleetyard chaos node-down` on orders-1's node, then
 * `fleetyard clock advance 20m`: the member is force-deleted 8m20s after the node went down
 * (50 s to Unknown, 300 s toleration, 30 s grace, 2 min margin), cannot be placed again in
 * its zone, and is replaced on a fresh disk 10 minutes after its recreated pod appeared
 * (docs/design/operator.md §6), all in seconds of wall time.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { FLEETYARD_BIN } from './testing/cluster.js';
import { kubectl } from './testing/kubectl.js';
import { clusterForFile, type KubeObject } from './testing/kubectl-fixtures.js';

const run = promisify(execFile);
const START = Date.parse('2026-01-01T00:00:00Z');
const cluster = clusterForFile({
  args: [
    '--clock=virtual',
    '--clock-start=2026-01-01T00:00:00Z',
    '--speed=0',
    '--nodes=6',
    '--seed=1',
  ],
});

const fleetyard = async (...args: string[]): Promise<string> =>
  (
    await run(process.execPath, [FLEETYARD_BIN, ...args, '--kubeconfig', cluster().kubeconfig], {
      timeout: 60_000,
    })
  ).stdout;

interface EventObject extends KubeObject {
  readonly reason?: string;
  readonly lastTimestamp?: string;
  readonly message?: string;
}

describe('celld on the virtual clock (README walk-through)', () => {
  it('replaces a member whose node is lost exactly as the contract says, in seconds', async () => {
    const k = kubectl('1.33', cluster().kubeconfig);
    assert.ok(k, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    await k.ok(['apply', '-f', 'examples/celld-persistent-fleet.yaml']);
    assert.match(
      await fleetyard('clock', 'advance', '2m'),
      /clock advanced to 2026-01-01T00:02:00/,
    );
    // The seed fixes the placement: orders-1 on fleetyard-node-5 (local-b, whose other node
    // holds orders-0); the free node is fleetyard-node-6 (local-c).
    const node = await k.ok(['get', 'pod', 'orders-1', '-o', 'jsonpath={.spec.nodeName}']);
    assert.equal(node, 'fleetyard-node-5');

    await fleetyard('chaos', 'node-down', node);
    const wall = performance.now();
    await fleetyard('clock', 'advance', '20m');
    const wallSeconds = (performance.now() - wall) / 1000;

    const events = JSON.parse(
      await k.ok([
        'get',
        'events',
        '--field-selector',
        'involvedObject.kind=CelldFleet',
        '-o',
        'json',
      ]),
    ) as { items: EventObject[] };
    const at = (reason: string): number => {
      const e = events.items.find((i) => i.reason === reason);
      assert.ok(e, `no ${reason} event: ${JSON.stringify(events.items.map((i) => i.reason))}`);
      return (Date.parse(e.lastTimestamp ?? '') - START) / 1000;
    };
    // Node down at 2m. Unknown at 2m55s (the 5 s monitor after 50 s of silence), evicted at
    // 7m55s, grace to 8m25s, force-deleted 2 min later (10m25s, the Event's whole seconds
    // within one more); replaced 10 min after the recreation.
    const forced = at('MemberForceDeleted');
    const replaced = at('MemberReplaced');
    assert.ok(
      forced >= 120 + 50 + 300 + 30 + 120 && forced <= 120 + 520,
      `force-deleted at ${forced} s`,
    );
    assert.equal(replaced, forced + 600, `replaced at ${replaced} s`);
    const pod = JSON.parse(await k.ok(['get', 'pod', 'orders-1', '-o', 'json'])) as KubeObject & {
      spec: { nodeName: string };
      status: { phase: string };
    };
    assert.equal(pod.status.phase, 'Running');
    assert.equal(pod.spec.nodeName, 'fleetyard-node-6');
    const fleet = await k.ok(['get', 'cf', 'orders', '-o', 'jsonpath={.status.readyReplicas}']);
    assert.equal(fleet, '5');
    assert.ok(wallSeconds < 60, `20 virtual minutes took ${wallSeconds} s of wall time`);
  });
});
