/**
 * Properties of the kubelet's admission over random histories of one node: pods arrive with
 * host ports, cpu and memory requests, finish or are deleted, in any order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../../api/object.js';
import { objectKey } from '../../client/store.js';
import { hostPortsConflict, hostPortsOf } from '../../scheduler/host-ports.js';
import { admitPod } from './admission.js';
import { AdmissionLedger } from './admission-ledger.js';
import { NODE, pod, simNode } from './testing/admission-fixtures.js';

const node = simNode({ capacity: { cpu: '4', memory: '16Gi', pods: '6' } });
const CPU_CAP = 4000n;
const MEMORY_CAP = 16n * 1024n ** 3n;
const PODS_CAP = 6;

const portArb = fc.record({
  hostPort: fc.constantFrom(80, 81),
  protocol: fc.constantFrom('TCP', 'UDP'),
  hostIP: fc.constantFrom('', '0.0.0.0', '10.0.0.1', '10.0.0.2'),
});

const specArb = fc.record({
  ports: fc.array(portArb, { maxLength: 2 }),
  cpu: fc.constantFrom(0, 500, 1000, 2500),
  memoryGi: fc.constantFrom(0, 4, 9),
  sidecar: fc.boolean(),
});
type PodSpecArb = typeof specArb extends fc.Arbitrary<infer T> ? T : never;

function makePod(i: number, s: PodSpecArb): KubeObject {
  const requests: Record<string, string> = {};
  if (s.cpu > 0) requests.cpu = `${s.cpu}m`;
  if (s.memoryGi > 0) requests.memory = `${s.memoryGi}Gi`;
  const ports = s.ports.map((p) => ({ ...p, containerPort: 80 }));
  // A sidecar holds its ports as a regular container does.
  const spec = s.sidecar
    ? { initContainers: [{ name: 'side', image: 'envoy', restartPolicy: 'Always', ports }] }
    : {};
  return pod(`p${i}`, { requests, ...(s.sidecar ? { spec } : { ports }) });
}

/** A history step: a new pod arrives, or the i-th pod (mod count) finishes or is deleted. */
const stepArb = fc.oneof(
  { weight: 3, arbitrary: specArb.map((spec) => ({ kind: 'arrive' as const, spec })) },
  { weight: 1, arbitrary: fc.nat().map((i) => ({ kind: 'finish' as const, i })) },
  { weight: 1, arbitrary: fc.nat().map((i) => ({ kind: 'delete' as const, i })) },
);

const requestOf = (p: KubeObject, r: 'cpu' | 'memory'): bigint => {
  const q = (p.spec as { containers: { resources?: { requests?: Record<string, string> } }[] })
    .containers[0]?.resources?.requests?.[r];
  if (q === undefined) return 0n;
  return r === 'cpu' ? BigInt(q.replace('m', '')) : BigInt(q.replace('Gi', '')) * 1024n ** 3n;
};

const sum = (pods: KubeObject[], r: 'cpu' | 'memory') =>
  pods.reduce((acc, p) => acc + requestOf(p, r), 0n);

function conflicting(pods: KubeObject[]): boolean {
  const ports = pods.map((p) => hostPortsOf(p.spec as never));
  return ports.some((a, i) =>
    ports.some((b, j) => j > i && a.some((x) => b.some((y) => hostPortsConflict(x, y)))),
  );
}

interface History {
  store: Map<string, KubeObject>;
  ledger: AdmissionLedger;
  created: KubeObject[];
  rejected: Set<string>;
}

/** A new pod arrives and is decided; a rejection must have a real cause, an admission none. */
function arrive(h: History, spec: PodSpecArb): void {
  const p = makePod(h.created.length, spec);
  h.created.push(p);
  h.store.set(objectKey(p), p);
  const before = h.ledger.admitted(NODE);
  const d = h.ledger.decide(p, node);
  if (d.rejection === undefined) {
    assert.ok(!conflicting([...before, p]), 'admitted onto a taken port');
    return;
  }
  h.rejected.add(objectKey(p));
  const cause = {
    NodePorts: () => conflicting([...before, p]),
    OutOfcpu: () => sum(before, 'cpu') + requestOf(p, 'cpu') > CPU_CAP,
    OutOfmemory: () => sum(before, 'memory') + requestOf(p, 'memory') > MEMORY_CAP,
    OutOfpods: () => before.length + 1 > PODS_CAP,
  }[d.rejection.reason];
  assert.ok(cause?.(), `unexpected rejection ${JSON.stringify(d.rejection)}`);
}

/** A pod finishes (Succeeded) or is deleted. */
function end(h: History, kind: 'finish' | 'delete', i: number): void {
  const p = h.created[i % h.created.length];
  if (p === undefined) return;
  const key = objectKey(p);
  if (kind === 'delete') h.store.delete(key);
  else if (h.store.has(key)) h.store.set(key, { ...p, status: { phase: 'Succeeded' } });
}

function assertInvariants(h: History): void {
  const admitted = h.ledger.admitted(NODE);
  assert.ok(!conflicting(admitted), 'two admitted pods share a host port');
  assert.ok(sum(admitted, 'cpu') <= CPU_CAP, 'cpu over allocatable');
  assert.ok(sum(admitted, 'memory') <= MEMORY_CAP, 'memory over allocatable');
  assert.ok(admitted.length <= PODS_CAP, 'pods over allocatable');
  for (const p of admitted) assert.ok(!h.rejected.has(objectKey(p)), 'a rejected pod ran');
}

describe('admission properties', () => {
  it('the admitted pods never share a host port nor exceed allocatable; every rejection has its cause', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        const store = new Map<string, KubeObject>();
        const h: History = {
          store,
          ledger: new AdmissionLedger((key) => store.get(key)),
          created: [],
          rejected: new Set(),
        };
        for (const step of steps) {
          if (step.kind === 'arrive') arrive(h, step.spec);
          else end(h, step.kind, step.i);
          assertInvariants(h);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the verdict does not depend on the order of the admitted pods nor on terminal ones', () => {
    fc.assert(
      fc.property(
        fc.array(specArb, { maxLength: 6 }),
        specArb,
        fc.array(specArb, { maxLength: 3 }),
        (admittedSpecs, candidate, terminalSpecs) => {
          const admitted = admittedSpecs.map((s, i) => makePod(i, s));
          const terminal = terminalSpecs.map((s, i) => ({
            ...makePod(100 + i, s),
            status: { phase: i % 2 === 0 ? 'Succeeded' : 'Failed' },
          }));
          const p = makePod(1000, candidate);
          const want = admitPod(p, node, admitted);
          assert.deepEqual(admitPod(p, node, [...admitted].reverse()), want);
          assert.deepEqual(admitPod(p, node, [...terminal, ...admitted]), want);
        },
      ),
      { numRuns: 300 },
    );
  });
});
