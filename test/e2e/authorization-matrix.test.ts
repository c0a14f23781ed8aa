/**
 * The authorization matrix of issue 18 on `fleetyard up`: for upstream's user-facing bootstrap
 * ClusterRoles `view`, `edit` and `admin` (each bound by a RoleBinding in one namespace),
 * `cluster-admin` (once by a RoleBinding, once by a ClusterRoleBinding) and two custom roles
 * (one limited by resourceNames, one holding subresources only), every verb on a sample of
 * resources and subresources, asked of the server as SubjectAccessReviews and compared with a
 * table written from upstream's documented default roles
 * (https://kubernetes.io/docs/reference/access-authn-authz/rbac/#user-facing-roles and the
 * aggregate-to-* rules of `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go`):
 *
 * - view reads most namespaced objects but not Secrets, `pods/exec`, Roles or RoleBindings;
 * - edit writes workloads, Secrets and ConfigMaps, and `pods/exec` (read and write rules both
 *   list it), but only reads `pods/log` and ResourceQuotas and cannot touch Roles or bindings;
 * - admin is edit plus every verb on Roles and RoleBindings of its namespace;
 * - none of them, bound in a namespace, reaches Nodes or Namespaces at the cluster scope.
 *
 * Then, for a sample of denied cells, the real request (kubectl impersonating the user, and the
 * same request over HTTPS) gets upstream's 403: kubectl's line and the Status body byte for byte.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adminRequest,
  forbiddenLine,
  impersonating,
  kubectl133,
  type ResourceAttributes,
  statusBody,
  subjectAccessReview,
  waitForAccess,
} from './testing/auth-fixtures.js';
import { clusterForFile } from './testing/kubectl-fixtures.js';

const cluster = clusterForFile();
const k = () => kubectl133(cluster());
const NS = 'mx';
const RBAC = 'rbac.authorization.k8s.io';

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
/** Verbs that name one object: the matrix asks them for the object `sample`. */
const NAMED_VERBS = new Set(['get', 'update', 'patch', 'delete']);

interface Sample {
  readonly group: string;
  readonly resource: string;
  readonly subresource?: string;
  readonly clusterScoped?: boolean;
}

const SAMPLES: Readonly<Record<string, Sample>> = {
  pods: { group: '', resource: 'pods' },
  'pods/log': { group: '', resource: 'pods', subresource: 'log' },
  'pods/exec': { group: '', resource: 'pods', subresource: 'exec' },
  secrets: { group: '', resource: 'secrets' },
  configmaps: { group: '', resource: 'configmaps' },
  deployments: { group: 'apps', resource: 'deployments' },
  'deployments/scale': { group: 'apps', resource: 'deployments', subresource: 'scale' },
  statefulsets: { group: 'apps', resource: 'statefulsets' },
  jobs: { group: 'batch', resource: 'jobs' },
  roles: { group: RBAC, resource: 'roles' },
  rolebindings: { group: RBAC, resource: 'rolebindings' },
  resourcequotas: { group: '', resource: 'resourcequotas' },
  namespaces: { group: '', resource: 'namespaces', clusterScoped: true },
  nodes: { group: '', resource: 'nodes', clusterScoped: true },
};

/** The allowed verbs of one cell, in VERBS order, space-separated ('' for none). */
type Row = Record<keyof typeof SAMPLES, string>;

const READ = 'get list watch';
const ALL = VERBS.join(' ');
const NONE = '';

const VIEW: Row = {
  pods: READ,
  'pods/log': READ,
  'pods/exec': NONE,
  secrets: NONE,
  configmaps: READ,
  deployments: READ,
  'deployments/scale': READ,
  statefulsets: READ,
  jobs: READ,
  roles: NONE,
  rolebindings: NONE,
  resourcequotas: READ,
  namespaces: NONE,
  nodes: NONE,
};

const EDIT: Row = {
  ...VIEW,
  pods: ALL,
  'pods/exec': ALL,
  secrets: ALL,
  configmaps: ALL,
  deployments: ALL,
  'deployments/scale': ALL,
  statefulsets: ALL,
  jobs: ALL,
};

const ADMIN: Row = { ...EDIT, roles: ALL, rolebindings: ALL };

const NAMESPACED_EVERYTHING: Row = {
  ...ADMIN,
  'pods/log': ALL,
  resourcequotas: ALL,
  namespaces: NONE,
  nodes: NONE,
};

const NOTHING: Row = Object.fromEntries(Object.keys(SAMPLES).map((key) => [key, NONE]));

/** The custom roles and who holds them; the bootstrap roles are bound to `u-<role>`. */
const NAMED_ROLE = {
  apiVersion: `${RBAC}/v1`,
  kind: 'Role',
  metadata: { name: 'named-objects', namespace: NS },
  rules: [
    {
      apiGroups: [''],
      resources: ['configmaps', 'secrets'],
      resourceNames: ['sample'],
      verbs: ['get', 'list', 'watch', 'update', 'delete'],
    },
  ],
};

const SUBRESOURCE_ROLE = {
  apiVersion: `${RBAC}/v1`,
  kind: 'ClusterRole',
  metadata: { name: 'subresources-only' },
  rules: [
    { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get', 'update', 'patch'] },
    { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  ],
};

const EXPECTED: Readonly<Record<string, Row>> = {
  'u-view': VIEW,
  'u-edit': EDIT,
  'u-admin': ADMIN,
  'u-cluster-admin-ns': NAMESPACED_EVERYTHING,
  'u-cluster-admin': Object.fromEntries(Object.keys(SAMPLES).map((key) => [key, ALL])),
  // A list, watch or deletecollection names no object, so resourceNames never match them.
  'u-named': { ...NOTHING, configmaps: 'get update delete', secrets: 'get update delete' },
  'u-sub': { ...NOTHING, 'deployments/scale': 'get update patch', 'pods/log': 'get' },
  'u-nobody': NOTHING,
};

function attributes(sample: Sample, verb: string): ResourceAttributes {
  return {
    verb,
    group: sample.group,
    resource: sample.resource,
    ...(sample.subresource !== undefined ? { subresource: sample.subresource } : {}),
    ...(sample.clusterScoped ? {} : { namespace: NS }),
    ...(NAMED_VERBS.has(verb) ? { name: 'sample' } : {}),
  };
}

/** Runs `tasks` with at most `limit` in flight (the SubjectAccessReviews of the matrix). */
async function pooled<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      out[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

async function setUp(): Promise<void> {
  await k().ok(['create', 'namespace', NS]);
  const bind = (name: string, role: string, user: string) =>
    k().ok(['-n', NS, 'create', 'rolebinding', name, `--clusterrole=${role}`, `--user=${user}`]);
  await Promise.all([
    bind('view', 'view', 'u-view'),
    bind('edit', 'edit', 'u-edit'),
    bind('admin', 'admin', 'u-admin'),
    bind('cluster-admin', 'cluster-admin', 'u-cluster-admin-ns'),
    bind('sub', 'subresources-only', 'u-sub'),
    k().ok([
      'create',
      'clusterrolebinding',
      'matrix-ca',
      '--clusterrole=cluster-admin',
      '--user=u-cluster-admin',
    ]),
    k().ok(['create', '-f', '-'], { input: JSON.stringify(SUBRESOURCE_ROLE) }),
    k().ok(['create', '-f', '-'], { input: JSON.stringify(NAMED_ROLE) }),
    k().ok(['-n', NS, 'create', 'rolebinding', 'named', '--role=named-objects', '--user=u-named']),
    k().ok(['-n', NS, 'create', 'deployment', 'd', '--image=nginx']),
    k().ok(['-n', NS, 'create', 'quota', 'q', '--hard=pods=10']),
  ]);
  // One allowed cell per subject: the bindings have reached the authorizer.
  await Promise.all(
    Object.entries(EXPECTED).flatMap(([user, row]) => {
      const key = Object.keys(row).find((r) => row[r] !== NONE);
      if (key === undefined) return [];
      const verb = row[key]!.split(' ')[0]!;
      return [waitForAccess(cluster(), { user }, attributes(SAMPLES[key]!, verb))];
    }),
  );
}

describe('the authorization matrix', () => {
  it('answers every verb on every sampled resource as upstream policy does', async () => {
    await setUp();
    const cells = Object.keys(EXPECTED).flatMap((user) =>
      Object.keys(SAMPLES).flatMap((key) => VERBS.map((verb) => ({ user, key, verb }))),
    );
    const answers = await pooled(
      cells.map(
        (c) => () =>
          subjectAccessReview(cluster(), { user: c.user }, attributes(SAMPLES[c.key]!, c.verb)),
      ),
      8,
    );
    // user → sample → allowed verbs, in VERBS order (the cells are generated in that order).
    const table: Record<string, Record<string, string>> = {};
    for (const user of Object.keys(EXPECTED)) {
      table[user] = Object.fromEntries(
        Object.keys(SAMPLES).map((key) => [
          key,
          cells
            .filter((c, i) => c.user === user && c.key === key && answers[i]?.allowed === true)
            .map((c) => c.verb)
            .join(' '),
        ]),
      );
    }
    assert.deepEqual(table, EXPECTED);

    // resourceNames match only the names they list.
    const other = await subjectAccessReview(
      cluster(),
      { user: 'u-named' },
      { verb: 'get', resource: 'configmaps', namespace: NS, name: 'other' },
    );
    assert.equal(other.allowed, false);
  });
});

interface DeniedCell {
  readonly user: string;
  readonly kubectl: readonly string[];
  readonly method: string;
  readonly path: string;
  readonly message: string;
  readonly details: { name?: string; group?: string; kind?: string };
}

const ns = (path: string) => `/namespaces/${NS}${path}`;

const DENIED: readonly DeniedCell[] = [
  {
    user: 'u-view',
    kubectl: ['-n', NS, 'get', 'secrets'],
    method: 'GET',
    path: `/api/v1${ns('/secrets')}`,
    message: `secrets is forbidden: User "u-view" cannot list resource "secrets" in API group "" in the namespace "${NS}"`,
    details: { kind: 'secrets' },
  },
  {
    user: 'u-view',
    kubectl: ['-n', NS, 'scale', 'deployment', 'd', '--replicas=2'],
    method: 'PATCH',
    path: `/apis/apps/v1${ns('/deployments/d/scale')}`,
    message: `deployments.apps "d" is forbidden: User "u-view" cannot patch resource "deployments/scale" in API group "apps" in the namespace "${NS}"`,
    details: { name: 'd', group: 'apps', kind: 'deployments' },
  },
  {
    user: 'u-view',
    kubectl: ['get', 'nodes'],
    method: 'GET',
    path: '/api/v1/nodes',
    message:
      'nodes is forbidden: User "u-view" cannot list resource "nodes" in API group "" at the cluster scope',
    details: { kind: 'nodes' },
  },
  {
    user: 'u-edit',
    kubectl: ['-n', NS, 'get', 'roles'],
    method: 'GET',
    path: `/apis/${RBAC}/v1${ns('/roles')}`,
    message: `roles.${RBAC} is forbidden: User "u-edit" cannot list resource "roles" in API group "${RBAC}" in the namespace "${NS}"`,
    details: { group: RBAC, kind: 'roles' },
  },
  {
    user: 'u-edit',
    kubectl: ['delete', 'namespace', NS],
    method: 'DELETE',
    path: `/api/v1/namespaces/${NS}`,
    // A named Namespace is in itself: the namespace of the attributes is its name.
    message: `namespaces "${NS}" is forbidden: User "u-edit" cannot delete resource "namespaces" in API group "" in the namespace "${NS}"`,
    details: { name: NS, kind: 'namespaces' },
  },
  {
    user: 'u-admin',
    kubectl: ['-n', NS, 'delete', 'resourcequota', 'q'],
    method: 'DELETE',
    path: `/api/v1${ns('/resourcequotas/q')}`,
    message: `resourcequotas "q" is forbidden: User "u-admin" cannot delete resource "resourcequotas" in API group "" in the namespace "${NS}"`,
    details: { name: 'q', kind: 'resourcequotas' },
  },
  {
    user: 'u-named',
    kubectl: ['-n', NS, 'get', 'configmap', 'other'],
    method: 'GET',
    path: `/api/v1${ns('/configmaps/other')}`,
    message: `configmaps "other" is forbidden: User "u-named" cannot get resource "configmaps" in API group "" in the namespace "${NS}"`,
    details: { name: 'other', kind: 'configmaps' },
  },
  {
    user: 'u-sub',
    kubectl: ['-n', NS, 'get', 'deployment', 'd'],
    method: 'GET',
    path: `/apis/apps/v1${ns('/deployments/d')}`,
    message: `deployments.apps "d" is forbidden: User "u-sub" cannot get resource "deployments" in API group "apps" in the namespace "${NS}"`,
    details: { name: 'd', group: 'apps', kind: 'deployments' },
  },
  {
    user: 'u-sub',
    kubectl: ['-n', NS, 'logs', 'p'],
    method: 'GET',
    path: `/api/v1${ns('/pods/p/log')}`,
    // kubectl logs reads the pod first, which u-sub may not; the log itself is allowed.
    message: `pods "p" is forbidden: User "u-sub" cannot get resource "pods" in API group "" in the namespace "${NS}"`,
    details: { name: 'p', kind: 'pods' },
  },
];

describe('denied cells, as real requests', () => {
  for (const cell of DENIED) {
    it(`${cell.user}: kubectl ${cell.kubectl.join(' ')}`, async () => {
      const r = await k().run([...cell.kubectl, `--as=${cell.user}`]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trimEnd().split('\n').at(-1), forbiddenLine(cell.message));
      if (cell.kubectl.includes('logs')) return;
      const raw = await adminRequest(cluster(), {
        method: cell.method,
        path: cell.path,
        headers: {
          ...impersonating(cell.user),
          ...(cell.method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {}),
        },
        ...(cell.method === 'PATCH' ? { body: { spec: { replicas: 2 } } } : {}),
      });
      assert.equal(raw.status, 403);
      assert.equal(raw.body, statusBody(403, 'Forbidden', cell.message, cell.details));
    });
  }
});
