/**
 * The operator's `celld_fleet_*` series (labels `namespace`, `fleet`), after the Go
 * operator's `observability.go`: desired, ready, observed and terminating replicas, blocked
 * (0/1), blocked age, members down, and replacements by kind. Reconciles record plain
 * snapshots; the gauges read them at scrape time, so the blocked age is current on every
 * scrape without a reconcile, and a deleted fleet's series go with {@link FleetMetrics.forget}.
 *
 * @module
 */
import type { Registry } from 'prom-client';

export interface FleetSnapshot {
  readonly desired: number;
  readonly ready: number;
  readonly observed: number;
  readonly terminating: number;
  /** Epoch ms the current Blocked state began; undefined when not blocked. */
  readonly blockedSince?: number;
  readonly membersDown: number;
}

export interface FleetMetrics {
  record(namespace: string, fleet: string, snapshot: FleetSnapshot): void;
  /** One destructive healing action taken (`forceDeletePod`, `replaceMember`, …). */
  replaced(namespace: string, fleet: string, kind: string): void;
  forget(namespace: string, fleet: string): void;
  register(registry: Registry): Promise<void>;
}

type PromClient = typeof import('prom-client');

const GAUGES: readonly [string, string, (s: FleetSnapshot, now: number) => number][] = [
  ['celld_fleet_desired_replicas', 'Members the fleet asks for (spec.replicas).', (s) => s.desired],
  ['celld_fleet_ready_replicas', 'Ready members, from the workload status.', (s) => s.ready],
  ['celld_fleet_observed_replicas', 'Member pods that have not finished.', (s) => s.observed],
  ['celld_fleet_terminating_replicas', 'Member pods being deleted.', (s) => s.terminating],
  [
    'celld_fleet_blocked',
    '1 while the fleet is Blocked.',
    (s) => (s.blockedSince === undefined ? 0 : 1),
  ],
  [
    'celld_fleet_blocked_age_seconds',
    'Seconds since the current Blocked state began (0 when not blocked).',
    (s, now) => (s.blockedSince === undefined ? 0 : Math.max(0, (now - s.blockedSince) / 1000)),
  ],
  ['celld_fleet_members_down', 'Members missing, terminating or not Ready.', (s) => s.membersDown],
];

export function createFleetMetrics(now: () => number): FleetMetrics {
  const snapshots = new Map<string, { namespace: string; fleet: string; s: FleetSnapshot }>();
  const replacements = new Map<
    string,
    { namespace: string; fleet: string; kind: string; n: number }
  >();
  return {
    record: (namespace, fleet, s) =>
      snapshots.set(`${namespace}/${fleet}`, { namespace, fleet, s }),
    replaced: (namespace, fleet, kind) => {
      const key = `${namespace}/${fleet}/${kind}`;
      const r = replacements.get(key) ?? { namespace, fleet, kind, n: 0 };
      r.n += 1;
      replacements.set(key, r);
    },
    forget: (namespace, fleet) => {
      snapshots.delete(`${namespace}/${fleet}`);
      for (const [key, r] of replacements)
        if (r.namespace === namespace && r.fleet === fleet) replacements.delete(key);
    },
    register: async (registry) => {
      const mod = await import('prom-client');
      // A CommonJS module: bundled, its exports arrive as `default`; under Node, named.
      const prom: PromClient = mod.default ?? mod;
      for (const [name, help, value] of GAUGES) {
        if (registry.getSingleMetric(name) !== undefined) continue;
        new prom.Gauge({
          name,
          help,
          labelNames: ['namespace', 'fleet'],
          registers: [registry],
          collect() {
            this.reset();
            const t = now();
            for (const { namespace, fleet, s } of snapshots.values())
              this.set({ namespace, fleet }, value(s, t));
          },
        });
      }
      if (registry.getSingleMetric('celld_fleet_replacements_total') === undefined) {
        new prom.Counter({
          name: 'celld_fleet_replacements_total',
          help: 'Destructive healing actions taken, by kind (forceDeletePod, releaseDisk, replaceLostDisk, replaceMember).',
          labelNames: ['namespace', 'fleet', 'kind'],
          registers: [registry],
          collect() {
            this.reset();
            for (const r of replacements.values())
              this.inc({ namespace: r.namespace, fleet: r.fleet, kind: r.kind }, r.n);
          },
        });
      }
    },
  };
}
