/**
 * YAML request bodies through the built `fleetyard up` (the bundle, not the TypeScript
 * sources): the bundle once answered every `application/yaml` body 400 `error converting
 * YAML to JSON: parse is not a function`, a dynamic import of the CommonJS yaml package that
 * esbuild bundles as a default export only. Upstream accepts YAML objects on create and
 * update (subresources and DeleteOptions too), and YAML patches only as server-side apply.
 */
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { API_ONLY, type Cluster, startCluster } from './testing/cluster.js';

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

function send(
  c: Cluster,
  method: string,
  path: string,
  type: string,
  body: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${c.token}`,
      'content-type': type,
      'content-length': String(Buffer.byteLength(body)),
    };
    const req = request(new URL(path, c.url), { method, ca: c.ca, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const CM = '/api/v1/namespaces/default/configmaps';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';
const YAML = 'application/yaml';
const APPLY = 'application/apply-patch+yaml';

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;

function laughs(levels: number): string {
  let text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: lol}\ndata:\n';
  text += '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n';
  for (let i = 1; i < levels; i++) {
    text += `  a${i}: &a${i} [${Array(10)
      .fill(`*a${i - 1}`)
      .join(', ')}]\n`;
  }
  return text;
}

describe('YAML bodies (built fleetyard up)', () => {
  let c: Cluster;
  before(async () => {
    c = await startCluster({ ephemeral: true, args: API_ONLY });
  });
  after(async () => {
    await c.stop();
    c.cleanup();
  });

  const steps: Array<[string, string, string, string, string, number, (b: Reply['body']) => void]> =
    [
      [
        'creates a ConfigMap from YAML',
        'POST',
        CM,
        YAML,
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: v\n',
        201,
        (b) => assert.deepEqual(b.data, { k: 'v' }),
      ],
      [
        'updates it from YAML',
        'PUT',
        `${CM}/y`,
        YAML,
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: w\n',
        200,
        (b) => assert.deepEqual(b.data, { k: 'w' }),
      ],
      [
        'applies YAML (server-side apply)',
        'PATCH',
        `${CM}/y?fieldManager=e2e&force=true`,
        APPLY,
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: applied\n',
        200,
        (b) => assert.deepEqual(b.data, { k: 'applied' }),
      ],
      [
        'refuses application/yaml as a patch type (415, as upstream)',
        'PATCH',
        `${CM}/y`,
        YAML,
        'data: {k: x}\n',
        415,
        (b) => assert.equal(b.reason, 'UnsupportedMediaType'),
      ],
      ['creates a Deployment from YAML', 'POST', DEPLOYMENTS, YAML, deployment, 201, () => {}],
      [
        'updates its /scale from YAML',
        'PUT',
        `${DEPLOYMENTS}/web/scale`,
        YAML,
        'apiVersion: autoscaling/v1\nkind: Scale\nmetadata: {name: web, namespace: default}\nspec: {replicas: 3}\n',
        200,
        (b) => assert.deepEqual(b.spec, { replicas: 3 }),
      ],
      [
        'refuses a YAML alias bomb with go-yaml text',
        'POST',
        CM,
        YAML,
        laughs(10),
        400,
        (b) =>
          assert.equal(
            b.message,
            'error converting YAML to JSON: yaml: document contains excessive aliasing',
          ),
      ],
      [
        'refuses YAML nested past 10,000 levels with go-yaml text',
        'POST',
        CM,
        YAML,
        `metadata: {name: deep}\ndata: ${'['.repeat(10_001)}${']'.repeat(10_001)}\n`,
        400,
        (b) => assert.match(String(b.message), /exceeded max depth of 10000$/),
      ],
      [
        'deletes with YAML DeleteOptions',
        'DELETE',
        `${CM}/y`,
        YAML,
        'apiVersion: v1\nkind: DeleteOptions\ngracePeriodSeconds: 0\n',
        200,
        () => {},
      ],
    ];
  for (const [name, method, path, type, body, status, check] of steps) {
    it(name, async () => {
      const r = await send(c, method, path, type, body);
      assert.equal(r.status, status, JSON.stringify(r.body).slice(0, 300));
      check(r.body);
    });
  }
});
