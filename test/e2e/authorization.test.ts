/**
 * RBAC as kubectl 1.33 sees it on `fleetyard up` (issue 18): `kubectl auth can-i` for the admin,
 * a user with no bindings, subresources and a ServiceAccount before and after `edit`;
 * `can-i --list` for the default ServiceAccount, row for row what upstream's bootstrap policy
 * gives every authenticated user (system:basic-user's self reviews, and the non-resource URLs
 * of system:discovery, system:public-info-viewer and system:service-account-issuer-discovery);
 * impersonation under the `impersonate` verb (refused with upstream's 403, allowed only for the
 * names a ClusterRole lists); and escalation prevention: a user who may write Roles and
 * RoleBindings cannot grant what it does not hold, nor bind cluster-admin.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  forbiddenLine,
  impersonating,
  kubectl133,
  rawRequest,
  statusBody,
  waitForAccess,
} from './testing/auth-fixtures.js';
import { clusterForFile } from './testing/kubectl-fixtures.js';

const cluster = clusterForFile();
const k = () => kubectl133(cluster());
const RBAC = 'rbac.authorization.k8s.io';

async function canI(...args: string[]): Promise<{ code: number; answer: string }> {
  const r = await k().run(['auth', 'can-i', ...args]);
  return { code: r.code, answer: r.stdout };
}

/**
 * `kubectl auth can-i --list` for a user that only holds what every authenticated user holds
 * in upstream's bootstrap policy (system:basic-user, system:discovery,
 * system:public-info-viewer, system:service-account-issuer-discovery). kubectl sorts the rows;
 * URLs granted by two roles appear twice, as on a real cluster.
 */
const AUTHENTICATED_USER_LIST = [
  'Resources                                       Non-Resource URLs                     Resource Names   Verbs',
  'selfsubjectreviews.authentication.k8s.io        []                                    []               [create]',
  'selfsubjectaccessreviews.authorization.k8s.io   []                                    []               [create]',
  'selfsubjectrulesreviews.authorization.k8s.io    []                                    []               [create]',
  '                                                [/.well-known/openid-configuration]   []               [get]',
  '                                                [/api/*]                              []               [get]',
  '                                                [/api]                                []               [get]',
  '                                                [/apis/*]                             []               [get]',
  '                                                [/apis]                               []               [get]',
  '                                                [/healthz]                            []               [get]',
  '                                                [/healthz]                            []               [get]',
  '                                                [/livez]                              []               [get]',
  '                                                [/livez]                              []               [get]',
  '                                                [/openapi/*]                          []               [get]',
  '                                                [/openapi]                            []               [get]',
  '                                                [/openid/v1/jwks]                     []               [get]',
  '                                                [/readyz]                             []               [get]',
  '                                                [/readyz]                             []               [get]',
  '                                                [/version/]                           []               [get]',
  '                                                [/version/]                           []               [get]',
  '                                                [/version]                            []               [get]',
  '                                                [/version]                            []               [get]',
].map((l) => `${l}\n`);

describe('kubectl auth can-i', () => {
  it('answers yes for the admin and no for a user without bindings', async () => {
    const answers = await Promise.all([
      canI('create', 'pods'),
      canI('*', '*'),
      canI('get', 'pods', '--subresource=log'),
      canI('get', 'pods', '--as=jane'),
      canI('get', 'pods', '--subresource=log', '--as=jane'),
    ]);
    assert.deepEqual(answers, [
      { code: 0, answer: 'yes\n' },
      { code: 0, answer: 'yes\n' },
      { code: 0, answer: 'yes\n' },
      { code: 1, answer: 'no\n' },
      { code: 1, answer: 'no\n' },
    ]);
  });

  it('lists exactly the bootstrap rules of an authenticated user for the default ServiceAccount', async () => {
    const out = await k().ok([
      'auth',
      'can-i',
      '--list',
      '--as=system:serviceaccount:default:default',
      '-n',
      'default',
    ]);
    assert.deepEqual(out.split(/(?<=\n)/), AUTHENTICATED_USER_LIST, `kubectl printed:\n${out}`);
  });

  it('answers for subresources and a ServiceAccount bound to edit', async () => {
    await k().ok(['create', 'namespace', 'cani']);
    await k().ok(['-n', 'cani', 'create', 'serviceaccount', 'sa']);
    await k().ok([
      '-n',
      'cani',
      'create',
      'rolebinding',
      'jane-view',
      '--clusterrole=view',
      '--user=jane',
    ]);
    const sa = 'system:serviceaccount:cani:sa';
    assert.deepEqual(await canI('create', 'pods', `--as=${sa}`, '-n', 'cani'), {
      code: 1,
      answer: 'no\n',
    });
    await k().ok([
      '-n',
      'cani',
      'create',
      'rolebinding',
      'sa-edit',
      '--clusterrole=edit',
      '--serviceaccount=cani:sa',
    ]);
    await waitForAccess(
      cluster(),
      { user: sa, groups: ['system:serviceaccounts', 'system:serviceaccounts:cani'] },
      { verb: 'create', resource: 'pods', namespace: 'cani' },
    );
    await waitForAccess(
      cluster(),
      { user: 'jane' },
      { verb: 'get', resource: 'pods', subresource: 'log', namespace: 'cani' },
    );
    const answers = await Promise.all([
      canI('create', 'pods', `--as=${sa}`, '-n', 'cani'),
      canI('create', 'pods', '--subresource=exec', `--as=${sa}`, '-n', 'cani'),
      canI('create', 'roles', `--as=${sa}`, '-n', 'cani'),
      canI('create', 'pods', `--as=${sa}`, '-n', 'default'),
      canI('get', 'pods', '--subresource=log', '--as=jane', '-n', 'cani'),
      canI('create', 'pods', '--subresource=exec', '--as=jane', '-n', 'cani'),
      canI('get', 'secrets', '--as=jane', '-n', 'cani'),
    ]);
    assert.deepEqual(
      answers.map((a) => a.answer),
      ['yes\n', 'yes\n', 'no\n', 'no\n', 'yes\n', 'no\n', 'no\n'],
    );
  });
});

describe('impersonation', () => {
  it('lets the admin act as jane, refuses a user without impersonate, allows only the named user', async () => {
    await k().ok(['create', 'namespace', 'imp']);
    await k().ok(['-n', 'imp', 'create', 'serviceaccount', 'sa']);
    const token = (await k().ok(['-n', 'imp', 'create', 'token', 'sa'])).trim();
    const sa = 'system:serviceaccount:imp:sa';

    // The admin may impersonate: the request is then jane's, and forbidden to her.
    const asJane = await k().run(['get', 'pods', '-n', 'imp', '--as=jane']);
    assert.equal(
      asJane.stderr,
      `${forbiddenLine('pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "imp"')}\n`,
    );

    const userMessage = (target: string) =>
      `users "${target}" is forbidden: User "${sa}" cannot impersonate resource "users" in API group "" at the cluster scope`;
    // (`auth whoami` would hide the 403 behind its own "not enabled" text: kubectl's doing.)
    const refused = await k().run(['--token', token, '-n', 'imp', 'get', 'pods', '--as=jane']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr.trimEnd().split('\n').at(-1), forbiddenLine(userMessage('jane')));
    const raw = await rawRequest(cluster(), {
      path: '/api/v1/namespaces/imp/pods',
      token,
      headers: impersonating('jane'),
    });
    assert.equal(raw.status, 403);
    assert.equal(
      raw.body,
      statusBody(403, 'Forbidden', userMessage('jane'), { name: 'jane', kind: 'users' }),
    );

    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'impersonate-jane' },
      rules: [
        { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['jane'] },
      ],
    };
    await k().ok(['create', '-f', '-'], { input: JSON.stringify(role) });
    await k().ok([
      'create',
      'clusterrolebinding',
      'sa-impersonates-jane',
      '--clusterrole=impersonate-jane',
      '--serviceaccount=imp:sa',
    ]);
    await waitForAccess(
      cluster(),
      { user: sa, groups: ['system:serviceaccounts', 'system:serviceaccounts:imp'] },
      { verb: 'impersonate', resource: 'users', name: 'jane' },
    );
    const [jane, bob] = await Promise.all([
      k().run(['--token', token, 'auth', 'whoami', '--as=jane']),
      k().run(['--token', token, '-n', 'imp', 'get', 'pods', '--as=bob']),
    ]);
    assert.equal(jane.code, 0, jane.stderr);
    assert.equal(
      jane.stdout,
      'ATTRIBUTE   VALUE\nUsername    jane\nGroups      [system:authenticated]\n',
    );
    assert.equal(bob.code, 1);
    assert.equal(bob.stderr.trimEnd().split('\n').at(-1), forbiddenLine(userMessage('bob')));
  });
});

describe('escalation prevention', () => {
  const user = ['--as=u', '--as-group=g'];
  const notHeld = (kind: string, name: string, rules: string) =>
    `${kind} "${name}" is forbidden: user "u" (groups=["g" "system:authenticated"]) is ` +
    `attempting to grant RBAC permissions not currently held:\n${rules}`;

  it('refuses a Role granting what the writer does not hold, and binding cluster-admin', async () => {
    await k().ok(['create', 'namespace', 'esc']);
    await k().ok([
      '-n',
      'esc',
      'create',
      'role',
      'rbac-writer',
      '--verb=create,get,list',
      '--resource=roles,rolebindings',
    ]);
    await k().ok([
      '-n',
      'esc',
      'create',
      'rolebinding',
      'rbac-writer',
      '--role=rbac-writer',
      '--user=u',
    ]);
    await waitForAccess(
      cluster(),
      { user: 'u', groups: ['g'] },
      { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'esc' },
    );

    // What it holds it may grant.
    await k().ok([
      '-n',
      'esc',
      'create',
      'role',
      'held',
      '--verb=get',
      '--resource=roles',
      ...user,
    ]);

    const role = await k().run([
      '-n',
      'esc',
      'create',
      'role',
      'x',
      '--verb=get',
      '--resource=secrets',
      ...user,
    ]);
    assert.equal(role.code, 1);
    const roleMessage = notHeld(
      'roles.rbac.authorization.k8s.io',
      'x',
      '{APIGroups:[""], Resources:["secrets"], Verbs:["get"]}',
    );
    assert.equal(role.stderr, `${forbiddenLine(roleMessage)}\n`);

    const binding = await k().run([
      '-n',
      'esc',
      'create',
      'rolebinding',
      'y',
      '--clusterrole=cluster-admin',
      '--user=u',
      ...user,
    ]);
    assert.equal(binding.code, 1);
    const bindingMessage = notHeld(
      'rolebindings.rbac.authorization.k8s.io',
      'y',
      '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
    );
    assert.equal(binding.stderr, `error: failed to create rolebinding: ${bindingMessage}\n`);

    // The whole 403 body of the refused Role, as kube-apiserver writes it.
    const raw = await rawRequest(cluster(), {
      method: 'POST',
      path: '/apis/rbac.authorization.k8s.io/v1/namespaces/esc/roles',
      token: cluster().token,
      headers: impersonating('u', ['g']),
      body: {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'x' },
        rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      },
    });
    assert.equal(raw.status, 403);
    assert.equal(
      raw.body,
      statusBody(403, 'Forbidden', roleMessage, {
        name: 'x',
        group: 'rbac.authorization.k8s.io',
        kind: 'roles',
      }),
    );
    const stored = await Promise.all([
      k().run(['-n', 'esc', 'get', 'role', 'x']),
      k().run(['-n', 'esc', 'get', 'rolebinding', 'y']),
    ]);
    assert.deepEqual(
      stored.map((r) => r.stderr),
      [
        'Error from server (NotFound): roles.rbac.authorization.k8s.io "x" not found\n',
        'Error from server (NotFound): rolebindings.rbac.authorization.k8s.io "y" not found\n',
      ],
    );
  });

  it('lets the bind and escalate verbs do what the rules alone would not', async () => {
    await k().ok(['create', 'namespace', 'esc2']);
    const rbac = { apiGroups: [RBAC], verbs: ['create', 'get'] };
    const writer = {
      apiVersion: `${RBAC}/v1`,
      kind: 'Role',
      metadata: { name: 'writer', namespace: 'esc2' },
      rules: [
        { ...rbac, resources: ['roles', 'rolebindings'] },
        {
          apiGroups: [RBAC],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['view'],
        },
        { apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate'] },
      ],
    };
    await k().ok(['create', '-f', '-'], { input: JSON.stringify(writer) });
    await k().ok(['-n', 'esc2', 'create', 'rolebinding', 'writer', '--role=writer', '--user=u']);
    await waitForAccess(
      cluster(),
      { user: 'u', groups: ['g'] },
      { verb: 'escalate', group: RBAC, resource: 'roles', namespace: 'esc2' },
    );
    // `bind` on clusterroles/view: u may bind view without holding its rules, not edit.
    await k().ok([
      '-n',
      'esc2',
      'create',
      'rolebinding',
      'v',
      '--clusterrole=view',
      '--user=w',
      ...user,
    ]);
    const edit = await k().run([
      '-n',
      'esc2',
      'create',
      'rolebinding',
      'e',
      '--clusterrole=edit',
      '--user=w',
      ...user,
    ]);
    assert.equal(edit.code, 1);
    assert.match(
      edit.stderr,
      /^error: failed to create rolebinding: rolebindings\.rbac\.authorization\.k8s\.io "e" is forbidden: user "u" \(groups=\["g" "system:authenticated"\]\) is attempting to grant RBAC permissions not currently held:\n/,
    );
    // `escalate` on roles: u may write a Role granting what it does not hold.
    await k().ok([
      '-n',
      'esc2',
      'create',
      'role',
      's',
      '--verb=get',
      '--resource=secrets',
      ...user,
    ]);
  });
});
