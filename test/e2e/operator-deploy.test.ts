/**
 * Deploying the celld operator the way its README says, with real kubectl against a real
 * `fleetyard up`: `deploy/crds` and `deploy/operator` (Namespace, RBAC, Deployment) pass a
 * server-side dry run and then apply, and the ClusterRole reads back with the rules as written.
 * Operators ship RBAC objects even though fleetyard does not enforce them, so this also covers
 * the rbac.authorization.k8s.io/v1 kinds through kubectl's `create role|clusterrole|…`,
 * `get`, `describe`, `delete`, and the `cannot change roleRef` answer.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { REPO_ROOT } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { clusterForFile, lines } from './testing/kubectl-fixtures.js';

const CRDS = join(REPO_ROOT, 'deploy', 'crds');
const OPERATOR = join(REPO_ROOT, 'deploy', 'operator');
const MAIN_VERSION = '1.33';
const GET_VERSIONS = ['1.27', '1.33'];

interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  rules?: unknown[];
}

/** Every object in the YAML files of a directory (in `kubectl apply -f <dir>`'s file order). */
function objectsIn(dir: string): ManifestObject[] {
  const files = readdirSync(dir)
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort();
  return files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8'))
      .map((d) => d.toJS() as ManifestObject | null)
      .filter((o): o is ManifestObject => o !== null && typeof o === 'object' && 'kind' in o),
  );
}

/** kubectl's `<resource>.<group>/<name>` for an object, as apply prints it. */
function printedName(o: ManifestObject): string {
  const group = o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '';
  const resource = o.kind.toLowerCase();
  return `${group ? `${resource}.${group}` : resource}/${o.metadata.name}`;
}

const current = clusterForFile();
const haveManifests = existsSync(OPERATOR) && objectsIn(OPERATOR).length > 0;

describe('celld operator manifests', {
  skip: !haveManifests && 'deploy/operator is missing',
}, () => {
  let k: Kubectl;
  before(() => {
    const client = kubectl(MAIN_VERSION, current().kubeconfig);
    assert.ok(client, `kubectl.${MAIN_VERSION} is not installed beside the kubectl on the PATH`);
    k = client;
  });

  // A server-side dry run creates nothing, so namespaced objects in a Namespace that does not
  // exist yet fail with `namespaces "celld-system" not found`, on kube-apiserver as here. And
  // `apply -f deploy/operator` reads its files in name order (deployment.yaml first), so a
  // fresh first apply fails for the Deployment the same way. The Namespace goes first.
  before(async () => {
    await k.ok(['apply', '-f', join(OPERATOR, '00-namespace.yaml')]);
  });

  const isNamespace = (o: ManifestObject) => o.kind === 'Namespace';
  // `fleetyard up` installs the celld CRDs and the operator's RBAC (deploy/operator/rbac.yaml,
  // its identity inside `up`) at start, without kubectl's last-applied annotation, so the
  // first apply configures them (it adds the annotation); the Deployment is new.
  const installedAtStart = (o: ManifestObject) => o.kind !== 'Deployment';
  const firstVerb = (o: ManifestObject) =>
    isNamespace(o) ? 'unchanged' : installedAtStart(o) ? 'configured' : 'created';
  const expectLines = (
    out: string[],
    objects: ManifestObject[],
    verb: (o: ManifestObject) => string,
  ) => {
    assert.equal(out.length, objects.length, out.join('\n'));
    for (const o of objects) {
      const want = `${printedName(o)} ${verb(o)}`;
      assert.ok(out.includes(want), `no line "${want}" in:\n${out.join('\n')}`);
    }
  };

  it('apply --dry-run=server prints every object as "(server dry run)" and stores nothing', async () => {
    const objects = [...objectsIn(CRDS), ...objectsIn(OPERATOR)];
    const out = lines(
      await k.ok(['apply', '--dry-run=server', '-f', CRDS, '-f', OPERATOR], { timeoutMs: 60_000 }),
    );
    expectLines(out, objects, (o) => `${firstVerb(o)} (server dry run)`);
    const r = await k.run(['-n', 'celld-system', 'get', 'deployment', 'celld-operator']);
    assert.notEqual(r.code, 0, 'a dry run must not create the Deployment');
  });

  it('apply creates everything; the ClusterRole round-trips its rules', async () => {
    const objects = [...objectsIn(CRDS), ...objectsIn(OPERATOR)];
    const out = lines(await k.ok(['apply', '-f', CRDS, '-f', OPERATOR], { timeoutMs: 60_000 }));
    expectLines(out, objects, firstVerb);
    const written = objects.find(
      (o) => o.kind === 'ClusterRole' && o.metadata.name === 'celld-operator',
    );
    assert.ok(written, 'deploy/operator has no ClusterRole celld-operator');
    const read = parseYaml(await k.ok(['get', 'clusterrole', 'celld-operator', '-o', 'yaml']));
    assert.equal(read.apiVersion, 'rbac.authorization.k8s.io/v1');
    assert.deepEqual(read.rules, written.rules);
    const again = lines(await k.ok(['apply', '-f', CRDS, '-f', OPERATOR], { timeoutMs: 60_000 }));
    expectLines(again, objects, () => 'unchanged');
  });

  it('get and describe show the operator bindings', async () => {
    const bindings = objectsIn(OPERATOR).filter((o) => o.kind.endsWith('RoleBinding'));
    for (const b of bindings) {
      const resource = b.kind.toLowerCase();
      const ns = b.metadata.namespace ? ['-n', b.metadata.namespace] : [];
      const table = lines(await k.ok(['get', resource, b.metadata.name, '-o', 'wide', ...ns]));
      assert.match(table[0] ?? '', /^NAME\s+ROLE\s+AGE\s+USERS\s+GROUPS\s+SERVICEACCOUNTS$/);
      const described = await k.ok(['describe', resource, b.metadata.name, ...ns]);
      assert.match(described, /^Role:$/m);
      assert.match(described, /^Subjects:$/m);
    }
  });
});

describe(`kubectl ${MAIN_VERSION}: create, get, describe and delete RBAC objects`, () => {
  const ns = 'rbac-e2e';
  let k: Kubectl;
  before(async () => {
    const client = kubectl(MAIN_VERSION, current().kubeconfig);
    assert.ok(client, `kubectl.${MAIN_VERSION} is not installed beside the kubectl on the PATH`);
    k = client;
    await k.ok(['create', 'namespace', ns]);
  });

  it('kubectl create role|clusterrole|rolebinding|clusterrolebinding', async () => {
    const n = ['-n', ns];
    assert.equal(
      await k.ok(['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods', ...n]),
      'role.rbac.authorization.k8s.io/pod-reader created\n',
    );
    assert.equal(
      await k.ok([
        'create',
        'clusterrole',
        'e2e-metrics',
        '--verb=get',
        '--non-resource-url=/metrics',
      ]),
      'clusterrole.rbac.authorization.k8s.io/e2e-metrics created\n',
    );
    assert.equal(
      await k.ok([
        'create',
        'rolebinding',
        'read-pods',
        '--role=pod-reader',
        '--user=jane',
        '--group=devs',
        `--serviceaccount=${ns}:default`,
        ...n,
      ]),
      'rolebinding.rbac.authorization.k8s.io/read-pods created\n',
    );
    assert.equal(
      await k.ok([
        'create',
        'clusterrolebinding',
        'e2e-metrics',
        '--clusterrole=e2e-metrics',
        `--serviceaccount=${ns}:default`,
      ]),
      'clusterrolebinding.rbac.authorization.k8s.io/e2e-metrics created\n',
    );

    const role = JSON.parse(await k.ok(['get', 'role', 'pod-reader', '-o', 'json', ...n]));
    assert.deepEqual(role.rules, [
      { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
    ]);
    const rb = lines(await k.ok(['get', 'rolebinding', 'read-pods', '-o', 'wide', ...n]));
    assert.match(
      rb[1] ?? '',
      /^read-pods\s+Role\/pod-reader\s+\S+\s+jane\s+devs\s+rbac-e2e\/default$/,
    );
    const roles = lines(await k.ok(['get', 'roles', ...n]));
    assert.match(roles[0] ?? '', /^NAME\s+CREATED AT$/);
    assert.match(roles[1] ?? '', /^pod-reader\s+\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const described = await k.ok(['describe', 'clusterrole', 'e2e-metrics']);
    assert.match(described, /^\s+\[\/metrics\]\s+\[\]\s+\[get\]$/m);
  });

  it('refuses to change a roleRef, with upstream text', async () => {
    const r = await k.run(['apply', '-f', '-', '-n', ns], {
      input: JSON.stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'read-pods', namespace: ns },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      }),
    });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /roleRef: Invalid value: rbac\.RoleRef\{APIGroup:"rbac\.authorization\.k8s\.io", Kind:"ClusterRole", Name:"view"\}: cannot change roleRef/,
    );
  });

  it('deletes them', async () => {
    assert.equal(
      await k.ok(['delete', 'rolebinding', 'read-pods', '-n', ns]),
      'rolebinding.rbac.authorization.k8s.io "read-pods" deleted\n',
    );
    assert.equal(
      await k.ok(['delete', 'clusterrolebinding,clusterrole', 'e2e-metrics']),
      'clusterrolebinding.rbac.authorization.k8s.io "e2e-metrics" deleted\nclusterrole.rbac.authorization.k8s.io "e2e-metrics" deleted\n',
    );
    assert.equal(
      await k.ok(['get', 'roles,rolebindings', '-n', ns, '-o', 'name']),
      'role.rbac.authorization.k8s.io/pod-reader\n',
    );
  });
});

describe('kubectl versions list clusterroles', () => {
  for (const version of GET_VERSIONS) {
    it(`kubectl.${version} get clusterroles`, async () => {
      const k = kubectl(version, current().kubeconfig);
      assert.ok(k, `kubectl.${version} is not installed beside the kubectl on the PATH`);
      await k.ok([
        'create',
        'clusterrole',
        `matrix-${version.replace('.', '')}`,
        '--verb=get',
        '--resource=nodes',
      ]);
      const out = lines(await k.ok(['get', 'clusterroles']));
      assert.match(out[0] ?? '', /^NAME\s+CREATED AT$/);
      assert.ok(
        out.some((l) => l.startsWith(`matrix-${version.replace('.', '')} `)),
        out.join('\n'),
      );
    });
  }
});
