/**
 * The least-privilege promises of `deploy/operator/` (deploy/README.md), checked on the YAML
 * itself so an edit cannot quietly widen them: no wildcards, no PVC create, reservations never
 * updated or deleted, the Deployment running as the ServiceAccount the bindings name, and the
 * Pod label the fleets' NetworkPolicies admit.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';

const DIR = join(import.meta.dirname, '..', '..', 'deploy', 'operator');
const OPERATOR_LABEL = { key: 'app.kubernetes.io/name', value: 'celld-operator' };

interface Rule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  nonResourceURLs?: string[];
}

interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  rules?: Rule[];
  subjects?: { kind: string; name: string; namespace?: string }[];
  roleRef?: { kind: string; name: string };
  spec?: {
    selector?: { matchLabels?: Record<string, string> };
    template?: {
      metadata?: { labels?: Record<string, string> };
      spec?: { serviceAccountName?: string; containers?: { args?: string[] }[] };
    };
  };
}

function load(): Manifest[] {
  const files = readdirSync(DIR).filter((f) => /\.ya?ml$/.test(f));
  assert.ok(files.length >= 3, `manifests in ${DIR}: ${files.join(', ')}`);
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(DIR, f), 'utf8')).map((doc) => {
      assert.deepEqual(doc.errors, [], `${f} parses`);
      return doc.toJS() as Manifest;
    }),
  );
}

const manifests = load();
const ofKind = (kind: string): Manifest[] => manifests.filter((m) => m.kind === kind);
const rulesOf = (m: Manifest): Rule[] => m.rules ?? [];
const roles = [...ofKind('ClusterRole'), ...ofKind('Role')];
const allRules = roles.flatMap(rulesOf);
/** The verbs granted on `resource` of `group` by any role. */
const verbsOn = (group: string, resource: string): Set<string> =>
  new Set(
    allRules
      .filter((r) => r.apiGroups?.includes(group) && r.resources?.includes(resource))
      .flatMap((r) => r.verbs ?? []),
  );

describe('deploy/operator RBAC', () => {
  it('has the roles it documents', () => {
    const names = roles.map((r) => `${r.kind}/${r.metadata?.namespace ?? ''}/${r.metadata?.name}`);
    assert.deepEqual(names.sort(), [
      'ClusterRole//celld-operator',
      'Role/celld-system/celld-operator',
      'Role/default/celld-operator-fleet',
    ]);
  });

  it('grants no wildcard verb, resource or group, and no non-resource URL', () => {
    for (const rule of allRules) {
      for (const field of ['apiGroups', 'resources', 'verbs'] as const) {
        const values = rule[field] ?? [];
        assert.ok(values.length > 0, `${field} set in ${JSON.stringify(rule)}`);
        for (const v of values) assert.ok(!v.includes('*'), `${field} ${v} in a rule`);
      }
      assert.equal(rule.nonResourceURLs, undefined);
    }
  });

  it('never creates PersistentVolumeClaims (the StatefulSet controller does)', () => {
    assert.ok(!verbsOn('', 'persistentvolumeclaims').has('create'));
    assert.ok(verbsOn('', 'persistentvolumeclaims').has('delete'), 'deletes a lost member claim');
  });

  it('never updates or deletes a CelldStorageReservation (they are permanent)', () => {
    const verbs = verbsOn('celld.fleetyard.dev', 'celldstoragereservations');
    for (const v of ['update', 'patch', 'delete', 'deletecollection']) assert.ok(!verbs.has(v), v);
    assert.deepEqual([...verbs].sort(), ['create', 'get', 'list', 'watch']);
  });

  it('grants no token minting, escalation or secrets', () => {
    const resources = allRules.flatMap((r) => r.resources ?? []);
    for (const r of ['secrets', 'serviceaccounts/token', 'roles', 'rolebindings', 'pods/exec']) {
      assert.ok(!resources.includes(r), r);
    }
    for (const v of ['escalate', 'bind', 'impersonate']) {
      assert.ok(!allRules.some((rule) => rule.verbs?.includes(v)), v);
    }
  });

  it('holds its Lease in celld-system only', () => {
    const leaseRoles = roles.filter((r) =>
      rulesOf(r).some((rule) => rule.resources?.includes('leases')),
    );
    assert.deepEqual(
      leaseRoles.map((r) => `${r.kind}/${r.metadata?.namespace}`),
      ['Role/celld-system'],
    );
  });

  it('binds every role to the celld-operator ServiceAccount', () => {
    const [account, ...more] = ofKind('ServiceAccount');
    assert.equal(more.length, 0);
    assert.equal(account?.metadata?.name, 'celld-operator');
    const bindings = [...ofKind('ClusterRoleBinding'), ...ofKind('RoleBinding')];
    assert.equal(bindings.length, roles.length, 'one binding per role');
    for (const b of bindings) {
      assert.deepEqual(b.subjects, [
        { kind: 'ServiceAccount', name: 'celld-operator', namespace: account?.metadata?.namespace },
      ]);
      const role = roles.find(
        (r) =>
          r.kind === b.roleRef?.kind &&
          r.metadata?.name === b.roleRef?.name &&
          r.metadata?.namespace === b.metadata?.namespace,
      );
      assert.ok(role, `${b.kind} ${b.metadata?.name} refers to a role in its namespace`);
    }
  });
});

describe('deploy/operator Deployment', () => {
  const [deployment] = ofKind('Deployment');
  const template = deployment?.spec?.template;

  it('runs as the ServiceAccount of rbac.yaml, in its namespace', () => {
    const [account] = ofKind('ServiceAccount');
    assert.equal(template?.spec?.serviceAccountName, account?.metadata?.name);
    assert.equal(deployment?.metadata?.namespace, account?.metadata?.namespace);
  });

  it('labels its Pods as the fleets NetworkPolicies admit', () => {
    assert.equal(template?.metadata?.labels?.[OPERATOR_LABEL.key], OPERATOR_LABEL.value);
    assert.equal(
      deployment?.spec?.selector?.matchLabels?.[OPERATOR_LABEL.key],
      OPERATOR_LABEL.value,
    );
  });

  it('runs the operator command and does not attest NetworkPolicy enforcement by default', () => {
    const args = template?.spec?.containers?.[0]?.args ?? [];
    assert.equal(args[0], 'operator');
    assert.ok(!args.some((a) => a.startsWith('--network-policy-enforced')));
  });

  it('lives in the namespace 00-namespace.yaml creates', () => {
    const [ns] = ofKind('Namespace');
    assert.equal(ns?.metadata?.name, deployment?.metadata?.namespace);
  });
});
