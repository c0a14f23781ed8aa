/**
 * Read-only inspection across the matrix: `describe` of a ConfigMap, a Deployment (no
 * controller, so no ReplicaSets) and a Pod with an Event the test writes about it (the
 * `involvedObject` field selector), and `explain` of built-in fields, which needs the
 * server's OpenAPI v3 documents with descriptions.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { configMap, describeKubectl, lines, manifest, pod } from './testing/kubectl-fixtures.js';
import {
  clean,
  deploymentWith,
  eventAbout,
  MATRIX_VERSIONS,
  manifestOf,
  matrixCluster,
  matrixNamespace,
} from './testing/matrix-fixtures.js';

const { current, audit } = matrixCluster();

/** The value after `Label:` on its line (describe aligns values with spaces). */
function field(text: string, label: string): string | undefined {
  const line = lines(text).find((l) => l.startsWith(`${label}:`));
  return line?.slice(label.length + 1).trim();
}

/** The DESCRIPTION block of `kubectl explain`, unwrapped into one line. */
function explainDescription(text: string): string {
  const all = text.split('\n');
  const start = all.indexOf('DESCRIPTION:');
  const block: string[] = [];
  for (const l of all.slice(start + 1)) {
    if (/^[A-Z][A-Z ]+:$/.test(l)) break;
    block.push(l.trim());
  }
  return block.join(' ').replace(/\s+/g, ' ').trim();
}

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const n = matrixNamespace(s, audit, 'inspect');
    const { ns, kc, pipe, read } = n;

    before(async () => {
      const objects = manifest(
        configMap('settings', { labels: { app: 'shop' }, data: { mode: 'fast' } }),
        deploymentWith(
          'shop',
          [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }],
          {
            replicas: 2,
          },
        ),
        pod('runner', { labels: { app: 'shop' } }),
      );
      clean(await pipe(objects, 'create', '-f', '-'), 'create fixtures');
      const runner = await read('pod', 'runner');
      const event = eventAbout(
        'runner.pulled',
        { kind: 'Pod', name: 'runner', namespace: ns, uid: runner.metadata.uid ?? '' },
        'Pulled',
        'Successfully pulled image "nginx:1.27"',
      );
      clean(await pipe(manifestOf(event), 'create', '-f', '-'), 'create event');
    });

    it('describe configmap: name, namespace, labels, the Data section, no events', async () => {
      const out = await kc('describe', 'configmap', 'settings');
      assert.equal(field(out, 'Name'), 'settings');
      assert.equal(field(out, 'Namespace'), ns);
      assert.equal(field(out, 'Labels'), 'app=shop');
      assert.equal(field(out, 'Annotations'), '<none>');
      assert.match(out, /\nData\n====\nmode:\n----\nfast\n/);
      assert.match(out, /\nBinaryData\n====\n/);
      assert.match(out, /\nEvents:\s+<none>\n$/);
    });

    it('describe deployment: replicas line, strategy, pod template', async () => {
      const out = await kc('describe', 'deployment', 'shop');
      assert.equal(field(out, 'Name'), 'shop');
      assert.equal(field(out, 'Selector'), 'app=shop');
      assert.equal(
        field(out, 'Replicas'),
        '2 desired | 0 updated | 0 total | 0 available | 0 unavailable',
      );
      assert.equal(field(out, 'StrategyType'), 'RollingUpdate');
      assert.equal(field(out, 'RollingUpdateStrategy'), '25% max unavailable, 25% max surge');
      assert.match(out, /\n {3}web:\n {4}Image: +nginx:1\.27\n {4}Port: +80\/TCP\n/);
    });

    it('describe pod: status from the object, the Event from the events list', async () => {
      const out = await kc('describe', 'pod', 'runner');
      assert.equal(field(out, 'Name'), 'runner');
      assert.equal(field(out, 'Status'), 'Pending');
      assert.equal(field(out, 'QoS Class'), 'BestEffort');
      const events = out.slice(out.indexOf('\nEvents:\n'));
      const eventLines = lines(events).slice(1);
      assert.match(eventLines[0] ?? '', /^ {2}Type {4}Reason {2}Age {3}From {5}Message$/);
      assert.match(
        eventLines[2] ?? '',
        /^ {2}Normal {2}Pulled {2}\d+s +kubelet {2}Successfully pulled image "nginx:1\.27"$/,
      );
    });

    it('explain deployment.spec.replicas', async () => {
      const out = await s.k().ok(['explain', 'deployment.spec.replicas']);
      const l = lines(out);
      assert.deepEqual(l.slice(0, 4), [
        'GROUP:      apps',
        'KIND:       Deployment',
        'VERSION:    v1',
        'FIELD: replicas <integer>',
      ]);
      assert.equal(
        explainDescription(out),
        'Number of desired pods. This is a pointer to distinguish between explicit zero and not specified. Defaults to 1.',
      );
    });

    it('explain pods.spec.containers lists the container fields', async () => {
      const out = await s.k().ok(['explain', 'pods.spec.containers']);
      const l = lines(out);
      assert.deepEqual(l.slice(0, 3), [
        'KIND:       Pod',
        'VERSION:    v1',
        'FIELD: containers <[]Container>',
      ]);
      assert.match(explainDescription(out), /^List of containers belonging to the pod\./);
      assert.ok(l.includes('FIELDS:'), out);
      assert.match(out, /\n {2}name\s+<string> -required-\n/);
      assert.match(out, /\n {2}image\s+<string>\n/);
      assert.match(out, /\n {2}ports\s+<\[\]ContainerPort>\n/);
    });
  });
}
