/**
 * The member Pod template: placement per mode and workload, the restart token, the probes
 * and the per-profile storage and identity.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveFleet } from './fleet-view.js';
import {
  ANNOTATION_RESTART_TOKEN,
  SCHEDULING_GATE_BUCKET_ZONE,
  SCHEDULING_GATE_DISK_PLACEMENT,
} from './metadata.js';
import { type PodTemplate, renderPodTemplate } from './pod-template.js';
import { excludeNodes, orderedZoneFor } from './scheduling.js';
import { bucketFleet, orderedFleet, persistentFleet, withSpec } from './testdata/fleets.js';

type Json = Record<string, unknown>;
const spec = (t: PodTemplate): Json => t.spec;
const container = (t: PodTemplate): Json => (spec(t).containers as Json[])[0] as Json;

describe('placement', () => {
  const zones = ['z-a', 'z-b', 'z-c'];
  const cases = [
    {
      name: 'Strict PersistentFleet: hard spread with minDomains, required anti-affinity',
      fleet: withSpec(persistentFleet, { placement: { zones, mode: 'Strict' } }),
      spread: { whenUnsatisfiable: 'DoNotSchedule', minDomains: 3 },
      antiAffinity: 'requiredDuringSchedulingIgnoredDuringExecution',
    },
    {
      name: 'Relaxed PersistentFleet: soft spread without minDomains, preferred anti-affinity',
      fleet: withSpec(persistentFleet, { placement: { zones, mode: 'Relaxed' } }),
      spread: { whenUnsatisfiable: 'ScheduleAnyway', minDomains: undefined },
      antiAffinity: 'preferredDuringSchedulingIgnoredDuringExecution',
    },
    {
      name: 'mode defaults to Strict',
      fleet: withSpec(persistentFleet, { placement: { zones } }),
      spread: { whenUnsatisfiable: 'DoNotSchedule', minDomains: 3 },
      antiAffinity: 'requiredDuringSchedulingIgnoredDuringExecution',
    },
    {
      name: 'Strict Ordered: no spread (zones are assigned per ordinal)',
      fleet: withSpec(orderedFleet, { placement: { zones, mode: 'Strict' } }),
      spread: undefined,
      antiAffinity: 'requiredDuringSchedulingIgnoredDuringExecution',
    },
    {
      name: 'Relaxed Ordered: soft spread kept',
      fleet: withSpec(orderedFleet, { placement: { zones, mode: 'Relaxed' } }),
      spread: { whenUnsatisfiable: 'ScheduleAnyway', minDomains: undefined },
      antiAffinity: 'preferredDuringSchedulingIgnoredDuringExecution',
    },
  ] as const;
  for (const c of cases) {
    it(c.name, () => {
      const s = spec(renderPodTemplate(c.fleet));
      const spread = s.topologySpreadConstraints as Json[] | undefined;
      if (c.spread === undefined) {
        assert.equal(spread, undefined);
      } else {
        assert.equal(spread?.length, 1);
        const only = spread?.[0] as Json;
        assert.equal(only.topologyKey, 'topology.kubernetes.io/zone');
        assert.equal(only.maxSkew, 1);
        assert.equal(only.whenUnsatisfiable, c.spread.whenUnsatisfiable);
        assert.equal(only.minDomains, c.spread.minDomains);
        assert.equal(only.nodeAffinityPolicy, 'Honor');
        assert.equal(only.nodeTaintsPolicy, 'Honor');
      }
      const affinity = s.affinity as Json;
      const anti = affinity.podAntiAffinity as Json;
      assert.deepEqual(Object.keys(anti), [c.antiAffinity]);
      const node = JSON.stringify(affinity.nodeAffinity);
      assert.match(
        node,
        /"topology.kubernetes.io\/zone","operator":"In","values":\["z-a","z-b","z-c"\]/,
      );
      assert.match(node, /"kubernetes.io\/os","operator":"In","values":\["linux"\]/);
    });
  }

  it('Ordered Pods wait behind the zone gate, PersistentFleet Pods behind the disk-placement gate', () => {
    assert.deepEqual(spec(renderPodTemplate(orderedFleet)).schedulingGates, [
      { name: SCHEDULING_GATE_BUCKET_ZONE },
    ]);
    assert.equal(spec(renderPodTemplate(bucketFleet)).schedulingGates, undefined);
    assert.deepEqual(spec(renderPodTemplate(persistentFleet)).schedulingGates, [
      { name: SCHEDULING_GATE_DISK_PLACEMENT },
    ]);
  });

  it('orderedZoneFor cycles through the zones', () => {
    const f = resolveFleet(orderedFleet);
    assert.deepEqual(
      [0, 1, 2, 3].map((n) => orderedZoneFor(f, n)),
      ['us-east-1a', 'us-east-1b', 'us-east-1a', 'us-east-1b'],
    );
  });
});

describe('restartToken', () => {
  const cases = [
    { name: 'set', token: 'r2', want: { [ANNOTATION_RESTART_TOKEN]: 'r2' } },
    { name: 'unset', token: undefined, want: undefined },
    { name: 'empty', token: '', want: undefined },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const fleet = withSpec(persistentFleet, {
        maintenance: c.token === undefined ? {} : { restartToken: c.token },
      });
      assert.deepEqual(renderPodTemplate(fleet).metadata.annotations, c.want);
    });
  }

  it('a new token changes the template, so members roll', () => {
    const a = renderPodTemplate(withSpec(persistentFleet, { maintenance: { restartToken: 'a' } }));
    const b = renderPodTemplate(withSpec(persistentFleet, { maintenance: { restartToken: 'b' } }));
    assert.notDeepEqual(a, b);
    assert.deepEqual(a.spec, b.spec);
  });
});

describe('container', () => {
  it('has the readiness probe of docs/design/operator.md §3 and no liveness or startup probe', () => {
    for (const fleet of [persistentFleet, bucketFleet, orderedFleet]) {
      const c = container(renderPodTemplate(fleet));
      assert.deepEqual(c.readinessProbe, {
        httpGet: { path: '/.well-known/celld/health', port: 8080, scheme: 'HTTP' },
        periodSeconds: 2,
        timeoutSeconds: 1,
        failureThreshold: 3,
        successThreshold: 1,
      });
      assert.equal(c.livenessProbe, undefined);
      assert.equal(c.startupProbe, undefined);
    }
  });

  const cases = [
    {
      name: 'PersistentFleet: claim volume, no emptyDir, no ephemeral-storage',
      fleet: persistentFleet,
      volumes: undefined,
      requests: { cpu: '500m', memory: '1Gi' },
      limits: { memory: '2Gi', cpu: '2' },
      grace: 40,
      account: 'orders',
    },
    {
      name: 'Bucket: emptyDir sized by sizeGiB, defaults for execution and lifecycle',
      fleet: bucketFleet,
      volumes: [{ name: 'data', emptyDir: { sizeLimit: '10Gi' } }],
      requests: { cpu: '250m', memory: '512Mi', 'ephemeral-storage': '10Gi' },
      limits: { memory: '1Gi', 'ephemeral-storage': '10Gi' },
      grace: 30,
      account: 'cache-s3',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const t = renderPodTemplate(c.fleet);
      assert.deepEqual(spec(t).volumes, c.volumes);
      assert.deepEqual(container(t).resources, { requests: c.requests, limits: c.limits });
      assert.equal(spec(t).terminationGracePeriodSeconds, c.grace);
      assert.equal(spec(t).serviceAccountName, c.account);
      assert.equal(spec(t).automountServiceAccountToken, false);
    });
  }
});

describe('excludeNodes (narrowing a gated Pod before its release)', () => {
  const template = spec(renderPodTemplate(persistentFleet));
  type Terms = { nodeSelectorTerms: Json[] };
  const terms = (s: Json) =>
    (
      (s.affinity as Json).nodeAffinity as {
        requiredDuringSchedulingIgnoredDuringExecution: Terms;
      }
    ).requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms;

  it('appends one metadata.name NotIn field requirement per node to every term, keeping the rest', () => {
    const out = excludeNodes(template, ['n1', 'n2']);
    const before = terms(template);
    const after = terms(out);
    assert.equal(after.length, before.length);
    assert.deepEqual(after[0]?.matchExpressions, before[0]?.matchExpressions);
    assert.deepEqual(after[0]?.matchFields, [
      { key: 'metadata.name', operator: 'NotIn', values: ['n1'] },
      { key: 'metadata.name', operator: 'NotIn', values: ['n2'] },
    ]);
    assert.deepEqual(
      (out.affinity as Json).podAntiAffinity,
      (template.affinity as Json).podAntiAffinity,
    );
  });
  it('adds nothing twice, and nothing at all for no node', () => {
    const once = excludeNodes(template, ['n1']);
    assert.deepEqual(excludeNodes(once, ['n1']), once);
    assert.equal(excludeNodes(template, []), template);
  });
  it('sets a required affinity when there was none', () => {
    assert.deepEqual(terms(excludeNodes({}, ['n1'])), [
      { matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['n1'] }] },
    ]);
  });
});
