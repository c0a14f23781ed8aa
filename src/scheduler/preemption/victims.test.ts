/**
 * Victim selection on a node and the choice among nodes (upstream `SelectVictimsOnNode` and
 * `pickOneNodeForPreemption`): tables for each precedence rule, and fast-check invariants over
 * random nodes (no victim of equal or higher priority, the preemptor fits without the victims,
 * every victim is needed, PDB violations minimal among the node's choices).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Pod, PodDisruptionBudget } from '../../api/model/index.js';
import { podRequests } from '../resources.js';
import { makePod } from '../testing/fixtures.js';
import {
  type NodeVictims,
  pickOneNodeForPreemption,
  selectVictimsOnNode,
  splitByPdbViolation,
} from './victims.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

function pod(
  name: string,
  priority: number,
  cpu: number,
  o: { app?: string; start?: number } = {},
) {
  const p = makePod(name, {
    node: 'n1',
    cpu: `${cpu}m`,
    ...(o.app !== undefined ? { labels: { app: o.app } } : {}),
    spec: { priority },
  });
  if (o.start !== undefined)
    p.status = { phase: 'Running', startTime: new Date(o.start).toISOString() };
  return p;
}

const cpuOf = (p: Pod): number =>
  Number(podRequests(p.spec ?? { containers: [] }).get('cpu') ?? 0n);

/** Fits when the remaining pods plus the preemptor's `need` stay within `capacity` milli-cpu. */
const fitsCpu =
  (capacity: number, need: number) =>
  (remaining: readonly Pod[]): boolean =>
    remaining.reduce((s, p) => s + cpuOf(p), 0) + need <= capacity;

function pdb(app: string, allowed: number, ns = 'default'): PodDisruptionBudget {
  return {
    metadata: { name: `pdb-${app}`, namespace: ns },
    spec: { selector: { matchLabels: { app } } },
    status: {
      disruptionsAllowed: allowed,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    },
  };
}

const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata?.name);

describe('selectVictimsOnNode', () => {
  const cases: Array<{
    name: string;
    pods: Pod[];
    pdbs?: PodDisruptionBudget[];
    need: number;
    want: string[] | 'noVictims' | 'doesNotFit';
    violations?: number;
  }> = [
    {
      name: 'no lower-priority pod → no victims',
      pods: [pod('a', 100, 1000), pod('b', 200, 1000)],
      need: 1000,
      want: 'noVictims',
    },
    {
      name: 'equal priority is never a victim',
      pods: [pod('a', 50, 1500), pod('b', 10, 500)],
      need: 1000,
      want: 'doesNotFit',
    },
    {
      name: 'least important goes first; the more important one is reprieved',
      pods: [pod('hi', 40, 1000), pod('lo', 10, 1000)],
      need: 1000,
      want: ['lo'],
    },
    {
      name: 'reprieve walks most important first, so a big high one stays over two small',
      pods: [pod('big', 30, 1000), pod('s1', 20, 500), pod('s2', 20, 500)],
      need: 1000,
      want: ['s1', 's2'],
    },
    {
      name: 'victims listed most important first',
      pods: [pod('x', 5, 1000), pod('y', 20, 1000)],
      need: 2000,
      want: ['y', 'x'],
    },
    {
      name: 'a PDB-violating pod is reprieved before a non-violating one',
      pods: [pod('guarded', 10, 1000, { app: 'db' }), pod('free', 20, 1000, { app: 'web' })],
      pdbs: [pdb('db', 0)],
      need: 1000,
      want: ['free'],
      violations: 0,
    },
    {
      name: 'a violation is counted when the guarded pod must go anyway',
      pods: [pod('g1', 10, 1000, { app: 'db' }), pod('g2', 10, 1000, { app: 'db' })],
      pdbs: [pdb('db', 1)],
      need: 2000,
      // Equally important: the violating one was charged (and reprieve-tried) first.
      want: ['g2', 'g1'],
      violations: 1,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = selectVictimsOnNode(50, c.pods, c.pdbs ?? [], fitsCpu(2000, c.need), NOW);
      if (c.want === 'noVictims') assert.ok('noVictims' in r);
      else if (c.want === 'doesNotFit') assert.ok('doesNotFit' in r);
      else {
        assert.ok('victims' in r);
        assert.deepEqual(names(r.victims.pods), c.want);
        if (c.violations !== undefined) assert.equal(r.victims.numPdbViolations, c.violations);
      }
    });
  }
});

describe('splitByPdbViolation', () => {
  it('charges budgets in order and ignores other namespaces, empty selectors and disrupted pods', () => {
    const a = pod('a', 0, 1, { app: 'db' });
    const b = pod('b', 0, 1, { app: 'db' });
    const c = pod('c', 0, 1, { app: 'db' });
    const other = pdb('db', 0, 'elsewhere');
    const empty: PodDisruptionBudget = {
      metadata: { namespace: 'default' },
      spec: { selector: {} },
    };
    const disrupted = pdb('db', 1);
    disrupted.status = { ...disrupted.status!, disruptedPods: { a: '2026-01-01T00:00:00Z' } };
    const r = splitByPdbViolation([a, b, c], [other, empty, disrupted]);
    assert.deepEqual(names(r.nonViolating), ['a', 'b']);
    assert.deepEqual(names(r.violating), ['c']);
  });
});

describe('pickOneNodeForPreemption', () => {
  const v = (pods: Pod[], numPdbViolations = 0): NodeVictims => ({ pods, numPdbViolations });
  const cases: Array<[string, Record<string, NodeVictims>, string]> = [
    ['fewest PDB violations first', { n1: v([pod('a', 1, 1)], 1), n2: v([pod('b', 9, 1)]) }, 'n2'],
    [
      'then the lowest highest-priority victim',
      { n1: v([pod('a', 9, 1)]), n2: v([pod('b', 5, 1), pod('c', 5, 1)]) },
      'n2',
    ],
    [
      'then the lowest sum of priorities',
      { n1: v([pod('a', 5, 1), pod('b', 5, 1)]), n2: v([pod('c', 5, 1), pod('d', 1, 1)]) },
      'n2',
    ],
    [
      'negative priorities: fewer victims have the lower (offset) sum',
      { n1: v([pod('a', -5, 1), pod('b', -5, 1)]), n2: v([pod('c', -5, 1)]) },
      'n2',
    ],
    [
      'then the latest start among the top victims',
      {
        n1: v([pod('a', 5, 1, { start: NOW - 60_000 })]),
        n2: v([pod('b', 5, 1, { start: NOW - 1_000 })]),
      },
      'n2',
    ],
    ['full tie: first by name', { n2: v([pod('a', 5, 1)]), n1: v([pod('b', 5, 1)]) }, 'n1'],
  ];
  for (const [name, candidates, want] of cases) {
    it(name, () => {
      assert.equal(pickOneNodeForPreemption(new Map(Object.entries(candidates)), NOW), want);
    });
  }
  it('no candidates → undefined', () => {
    assert.equal(pickOneNodeForPreemption(new Map(), NOW), undefined);
  });
});

describe('selectVictimsOnNode invariants', () => {
  const podArb = fc.record({
    priority: fc.integer({ min: -3, max: 3 }).map((x) => x * 10),
    cpu: fc.integer({ min: 1, max: 8 }).map((x) => x * 250),
    app: fc.constantFrom('db', 'web', undefined),
  });
  const arb = fc.record({
    pods: fc.array(podArb, { minLength: 0, maxLength: 7 }),
    preemptor: fc.integer({ min: -3, max: 3 }).map((x) => x * 10),
    need: fc.integer({ min: 1, max: 8 }).map((x) => x * 250),
    allowed: fc.integer({ min: 0, max: 2 }),
  });

  it('victims are lower priority, necessary, and leave room for the preemptor', () => {
    fc.assert(
      fc.property(arb, ({ pods: specs, preemptor, need, allowed }) => {
        const pods = specs.map((s, i) =>
          pod(`p${i}`, s.priority, s.cpu, s.app === undefined ? {} : { app: s.app }),
        );
        const fits = fitsCpu(2000, need);
        const r = selectVictimsOnNode(preemptor, pods, [pdb('db', allowed)], fits, NOW);
        if (!('victims' in r)) return;
        const victims = new Set(r.victims.pods);
        for (const v of victims) assert.ok((v.spec?.priority ?? 0) < preemptor);
        const remaining = pods.filter((p) => !victims.has(p));
        assert.ok(fits(remaining), 'the preemptor fits once the victims are gone');
        // Minimality: putting any single victim back breaks the fit.
        for (const v of victims) assert.ok(!fits([...remaining, v]), 'every victim is needed');
      }),
    );
  });

  it('no PDB violation when a violation-free choice exists by reprieving guarded pods first', () => {
    fc.assert(
      fc.property(arb, ({ pods: specs, preemptor, need }) => {
        const pods = specs.map((s, i) =>
          pod(`p${i}`, s.priority, s.cpu, s.app === undefined ? {} : { app: s.app }),
        );
        const fits = fitsCpu(2000, need);
        const r = selectVictimsOnNode(preemptor, pods, [pdb('db', 0)], fits, NOW);
        if (!('victims' in r)) return;
        const guarded = pods.filter((p) => p.metadata?.labels?.app === 'db');
        // If the preemptor fits with every guarded pod kept (and all other lower ones gone),
        // no guarded pod may be a victim.
        const keepable = pods.filter(
          (p) => (p.spec?.priority ?? 0) >= preemptor || guarded.includes(p),
        );
        if (fits(keepable)) assert.equal(r.victims.numPdbViolations, 0);
        assert.equal(
          r.victims.numPdbViolations,
          r.victims.pods.filter((p) => guarded.includes(p)).length,
        );
      }),
    );
  });
});
