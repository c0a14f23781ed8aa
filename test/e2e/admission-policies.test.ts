/**
 * ValidatingAdmissionPolicy on the real `fleetyard up` (API server only), driven by kubectl
 * 1.33 as a user drives it: a policy refusing Deployments above 5 replicas, bound with `Deny`
 * (kubectl create and patch refused with upstream's text, 422 Invalid by default, 403 with
 * `reason: Forbidden`), `Warn` (the write succeeds, kubectl prints the warning), `Audit` (the
 * write succeeds silently; the audit log's annotation when `up` has `--audit-log-path`),
 * parameters from a ConfigMap, a match condition exempting a namespace, and a message
 * expression. Each test owns a namespace and binds its policy to that namespace alone, so the
 * tests share one cluster without seeing each other's policies.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { API_ONLY, FLEETYARD_BIN } from './testing/cluster.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';
import { clusterForFile, getJson, pollUntil } from './testing/kubectl-fixtures.js';
import { rawRequest } from './testing/webhook-server.js';

/** Whether `up` takes `--audit-log-path` yet (the lead is wiring audit while this is written). */
const AUDIT_FLAG = execFileSync(process.execPath, [FLEETYARD_BIN, 'up', '--help'], {
  encoding: 'utf8',
}).includes('--audit-log-path');
/** The audit log, outside the data dir that `clusterForFile` creates and removes. */
const AUDIT_DIR = mkdtempSync(join(tmpdir(), 'fleetyard-e2e-audit-'));
const AUDIT_LOG = join(AUDIT_DIR, 'audit.log');
after(() => rmSync(AUDIT_DIR, { recursive: true, force: true }));

const cluster = clusterForFile({
  args: [...API_ONLY, '--nodes=0', ...(AUDIT_FLAG ? [`--audit-log-path=${AUDIT_LOG}`] : [])],
});

type Json = Record<string, unknown>;

/** The policy: Deployments' replicas at most `limit` (a literal, or the param's `max`). */
function policy(name: string, extra: Json = {}, validation: Json = {}): Json {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [
          {
            apiGroups: ['apps'],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['deployments'],
          },
        ],
      },
      validations: [
        { expression: 'object.spec.replicas <= 5', message: 'at most 5 replicas', ...validation },
      ],
      ...extra,
    },
  };
}

/** A binding of `policyName` to the namespace `ns` alone. */
function binding(
  name: string,
  policyName: string,
  ns: string,
  actions: string[],
  extra: Json = {},
) {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName,
      validationActions: actions,
      matchResources: {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } },
      },
      ...extra,
    },
  };
}

function deploymentBody(name: string, replicas: number): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
      },
    },
  };
}

describe('ValidatingAdmissionPolicy with kubectl 1.33', () => {
  let k: Kubectl;
  before(() => {
    const bin = kubectl('1.33', cluster().kubeconfig);
    assert.ok(bin, 'kubectl.1.33 is not installed beside the kubectl on the PATH');
    k = bin;
  });

  /** Creates the namespace and the objects (a JSON List read by `kubectl create -f -`). */
  async function setUp(ns: string, ...objects: Json[]): Promise<void> {
    await k.ok(['create', 'namespace', ns]);
    const input = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
    await k.ok(['create', '-f', '-'], { input });
  }

  /** `kubectl create deployment NAME --replicas=N -n NS`. */
  const create = (ns: string, name: string, replicas: number) =>
    k.run(['create', 'deployment', name, '--image=nginx', `--replicas=${replicas}`, '-n', ns]);

  it('Deny refuses create and patch with 422 Invalid and upstream text', async () => {
    await setUp('vap-deny', policy('p'), binding('b', 'p', 'vap-deny', ['Deny']));
    const text = `deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 5 replicas`;

    const refused = await create('vap-deny', 'big', 9);
    assert.notEqual(refused.code, 0);
    assert.equal(refused.stderr.trim(), `error: failed to create deployment: ${text}`);

    const raw = await rawRequest(
      cluster(),
      'POST',
      '/apis/apps/v1/namespaces/vap-deny/deployments',
      deploymentBody('big', 9),
    );
    assert.equal(raw.code, 422);
    assert.equal(raw.body.reason, 'Invalid');
    assert.equal(raw.body.message, text);
    const causeMessage = text.replace('deployments.apps "big" is forbidden: ', '');
    assert.deepEqual(raw.body.details, {
      name: 'big',
      group: 'apps',
      kind: 'deployments',
      causes: [{ message: causeMessage }],
    });

    await k.ok(['create', 'deployment', 'big', '--image=nginx', '--replicas=3', '-n', 'vap-deny']);
    const patched = await k.run([
      'patch',
      'deployment',
      'big',
      '-n',
      'vap-deny',
      '-p',
      '{"spec":{"replicas":9}}',
    ]);
    assert.notEqual(patched.code, 0);
    // kubectl prints an Invalid status from its details (kind, name, one cause per line, each
    // `<field>: <message>`): upstream's refusal has one cause with no field, hence `: :`.
    assert.equal(
      patched.stderr.trim(),
      `The deployments "big" is invalid: : ValidatingAdmissionPolicy 'p' with binding 'b' denied request: at most 5 replicas`,
    );
    const stored = await getJson<{ spec: { replicas: number } }>(k, [
      'deployment',
      'big',
      '-n',
      'vap-deny',
    ]);
    assert.equal(stored.spec.replicas, 3);
  });

  it('reason: Forbidden answers 403', async () => {
    await setUp(
      'vap-forbidden',
      policy('p-forbidden', {}, { reason: 'Forbidden' }),
      binding('b-forbidden', 'p-forbidden', 'vap-forbidden', ['Deny']),
    );
    const text = `deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'p-forbidden' with binding 'b-forbidden' denied request: at most 5 replicas`;
    const raw = await rawRequest(
      cluster(),
      'POST',
      '/apis/apps/v1/namespaces/vap-forbidden/deployments',
      deploymentBody('big', 9),
    );
    assert.equal(raw.code, 403);
    assert.equal(raw.body.reason, 'Forbidden');
    assert.equal(raw.body.message, text);
    const refused = await create('vap-forbidden', 'big', 9);
    assert.equal(refused.stderr.trim(), `error: failed to create deployment: ${text}`);
  });

  it('Warn lets the write through and kubectl prints the warning', async () => {
    await setUp('vap-warn', policy('p-warn'), binding('b-warn', 'p-warn', 'vap-warn', ['Warn']));
    const r = await create('vap-warn', 'big', 9);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'deployment.apps/big created');
    assert.equal(
      r.stderr.trim(),
      `Warning: Validation failed for ValidatingAdmissionPolicy 'p-warn' with binding 'b-warn': at most 5 replicas`,
    );
  });

  it('Audit lets the write through silently and annotates the audit event', async (t) => {
    await setUp(
      'vap-audit',
      policy('p-audit'),
      binding('b-audit', 'p-audit', 'vap-audit', ['Audit']),
    );
    const r = await create('vap-audit', 'big', 9);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'deployment.apps/big created');
    assert.equal(r.stderr, '');
    if (!AUDIT_FLAG) {
      t.diagnostic('fleetyard up has no --audit-log-path yet: the audit annotation is not checked');
      return;
    }
    const event = await pollUntil('the audit event with the policy annotation', async () => {
      if (!existsSync(AUDIT_LOG)) return undefined;
      return readFileSync(AUDIT_LOG, 'utf8')
        .split('\n')
        .filter((l) => l.includes('validation.policy.admission.k8s.io/validation_failure'))
        .map((l) => JSON.parse(l) as { annotations: Record<string, string> })[0];
    });
    const failures: unknown = JSON.parse(
      event.annotations['validation.policy.admission.k8s.io/validation_failure'] ?? '[]',
    );
    assert.deepEqual(failures, [
      {
        message: 'at most 5 replicas',
        policy: 'p-audit',
        binding: 'b-audit',
        expressionIndex: 0,
        validationActions: ['Audit'],
      },
    ]);
  });

  it('takes its limit from a ConfigMap parameter', async () => {
    const limits = (max: string) => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'limits', namespace: 'vap-params' },
      data: { max },
    });
    await setUp(
      'vap-params',
      limits('10'),
      policy(
        'p-params',
        { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } },
        {
          expression: 'object.spec.replicas <= int(params.data.max)',
          message: 'too many replicas',
        },
      ),
      binding('b-params', 'p-params', 'vap-params', ['Deny'], {
        paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
      }),
    );
    await k.ok([
      'create',
      'deployment',
      'nine',
      '--image=nginx',
      '--replicas=9',
      '-n',
      'vap-params',
    ]);
    const eleven = await create('vap-params', 'eleven', 11);
    assert.match(
      eleven.stderr,
      /ValidatingAdmissionPolicy 'p-params' with binding 'b-params' denied request: too many replicas/,
    );
    await k.ok(['patch', 'configmap', 'limits', '-n', 'vap-params', '-p', '{"data":{"max":"20"}}']);
    await k.ok([
      'create',
      'deployment',
      'eleven',
      '--image=nginx',
      '--replicas=11',
      '-n',
      'vap-params',
    ]);
  });

  it('matchConditions exempt a namespace', async () => {
    await k.ok(['create', 'namespace', 'vap-exempt']);
    await setUp(
      'vap-matched',
      policy('p-cond', {
        matchConditions: [{ name: 'not-exempt', expression: 'request.namespace != "vap-exempt"' }],
      }),
      {
        ...binding('b-cond', 'p-cond', 'vap-matched', ['Deny']),
        spec: {
          policyName: 'p-cond',
          validationActions: ['Deny'],
          matchResources: {
            namespaceSelector: {
              matchExpressions: [
                {
                  key: 'kubernetes.io/metadata.name',
                  operator: 'In',
                  values: ['vap-matched', 'vap-exempt'],
                },
              ],
            },
          },
        },
      },
    );
    const refused = await create('vap-matched', 'big', 9);
    assert.match(refused.stderr, /ValidatingAdmissionPolicy 'p-cond' with binding 'b-cond'/);
    const exempt = await create('vap-exempt', 'big', 9);
    assert.equal(exempt.code, 0, exempt.stderr);
  });

  it('messageExpression builds the refusal message', async () => {
    await setUp(
      'vap-message',
      policy(
        'p-message',
        {},
        {
          messageExpression:
            "'replicas ' + string(object.spec.replicas) + ' exceed 5 in ' + object.metadata.name",
        },
      ),
      binding('b-message', 'p-message', 'vap-message', ['Deny']),
    );
    const refused = await create('vap-message', 'big', 9);
    assert.equal(
      refused.stderr.trim(),
      `error: failed to create deployment: deployments.apps "big" is forbidden: ValidatingAdmissionPolicy 'p-message' with binding 'b-message' denied request: replicas 9 exceed 5 in big`,
    );
  });
});
