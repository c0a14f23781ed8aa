import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../api/object.js';
import { objectKey } from '../../client/store.js';
import { AdmissionLedger } from './admission-ledger.js';
import { NODE, type PodOptions, pod, simNode } from './testing/admission-fixtures.js';

const PORTS =
  "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports";
const port80 = [{ hostPort: 80 }];
const node = simNode();

/** A ledger over an in-memory "cache" the test edits. */
function setup() {
  const store = new Map<string, KubeObject>();
  const ledger = new AdmissionLedger((key) => store.get(key));
  const put = (name: string, o: PodOptions = {}) => {
    const p = pod(name, o);
    store.set(objectKey(p), p);
    return p;
  };
  const names = () =>
    ledger
      .admitted(NODE)
      .map((p) => p.metadata?.name)
      .sort();
  return { store, ledger, put, names };
}

describe('AdmissionLedger', () => {
  it('admits the pods found at start in creation-time order, ties by name', () => {
    const { ledger, put, names } = setup();
    const late = put('a-late', { ports: port80, creationTimestamp: '2025-01-01T00:00:02Z' });
    const early = put('z-early', { ports: port80, creationTimestamp: '2025-01-01T00:00:01Z' });
    const tieB = put('tie-b', {
      ports: [{ hostPort: 81 }],
      creationTimestamp: '2025-01-01T00:00:03Z',
    });
    const tieA = put('tie-a', {
      ports: [{ hostPort: 81 }],
      creationTimestamp: '2025-01-01T00:00:03Z',
    });
    const done = put('done', { ports: port80, phase: 'Succeeded' });
    const rejected = ledger.seed([late, tieB, done, early, tieA], (n) =>
      n === NODE ? node : undefined,
    );
    assert.deepEqual(
      rejected.map((r) => [r.pod.metadata?.name, r.rejection.reason]),
      [
        ['a-late', 'NodePorts'],
        ['tie-b', 'NodePorts'],
      ],
    );
    assert.deepEqual(names(), ['tie-a', 'z-early']);
  });

  it('decides in arrival order afterwards; a rejection is final and reported fresh once', () => {
    const { store, ledger, put, names } = setup();
    const first = put('first', { ports: port80 });
    const second = put('second', { ports: port80 });
    assert.deepEqual(ledger.decide(first, node), {});
    const d = ledger.decide(second, node);
    assert.deepEqual(d, { rejection: { reason: 'NodePorts', message: PORTS }, fresh: true });
    store.delete(objectKey(first));
    // The port is free now, but the verdict stands (upstream never re-admits a rejected pod).
    assert.deepEqual(ledger.decide(second, node), { rejection: d.rejection });
    assert.deepEqual(ledger.decide(first, node), {}, 'an admitted pod stays admitted');
    assert.deepEqual(names(), []);
  });

  it('frees what a terminal, deleted or replaced pod held', () => {
    for (const end of ['Succeeded', 'Failed', 'deleted', 'replaced'] as const) {
      const { store, ledger, put } = setup();
      const old = put('old', { ports: port80, requests: { cpu: '3' } });
      assert.deepEqual(ledger.decide(old, node), {});
      if (end === 'deleted') store.delete(objectKey(old));
      else if (end === 'replaced') put('old', { uid: 'uid-new' });
      else put('old', { ports: port80, requests: { cpu: '3' }, phase: end });
      const next = put('next', { ports: port80, requests: { cpu: '3' } });
      assert.deepEqual(ledger.decide(next, node), {}, end);
    }
  });

  it('counts a pod being deleted until it is gone', () => {
    const { store, ledger, put } = setup();
    const leaving = put('leaving', { ports: port80 });
    ledger.decide(leaving, node);
    const terminating = {
      ...leaving,
      metadata: { ...leaving.metadata, deletionTimestamp: '2025-01-01T00:00:30Z' },
    };
    store.set(objectKey(leaving), terminating);
    const next = put('next', { ports: port80 });
    assert.equal(ledger.decide(next, node).rejection?.reason, 'NodePorts');
  });

  it('keeps nodes apart and forgets terminal pods', () => {
    const { ledger, put, names } = setup();
    const other = simNode();
    const elsewhere = put('elsewhere', { ports: port80, node: 'fleetyard-node-2' });
    assert.deepEqual(
      ledger.decide(elsewhere, { ...other, metadata: { name: 'fleetyard-node-2' } }),
      {},
    );
    assert.deepEqual(ledger.decide(put('here', { ports: port80 }), node), {});
    assert.deepEqual(names(), ['here']);
    const finished = put('here', { ports: port80, phase: 'Succeeded' });
    assert.deepEqual(ledger.decide(finished, node), {});
    assert.deepEqual(names(), []);
  });
});
