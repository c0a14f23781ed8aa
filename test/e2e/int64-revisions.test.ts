/**
 * Revisions are int64 on a running `fleetyard up`, read and written with kubectl: a
 * ControllerRevision's `revision` of 3546343826724305832 reads back exactly (JSON, the table,
 * a merge patch), the StatefulSet controller numbers the next revision …833 and a rollback
 * moves an old revision past the newest, and the Deployment controller does the same with its
 * string annotations. `kubectl rollout history|undo` read these numbers client-side: the
 * server only has to keep them exact. Doubles would give 3546343826724306000.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as support from './testing/client-node-harness.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

const BIG = '3546343826724305832';
/** BIG + n, exactly. */
const big = (n: number) => String(BigInt(BIG) + BigInt(n));

function template(app: string, image: string): Record<string, unknown> {
  return {
    metadata: { labels: { app } },
    spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image }] },
  };
}

/** The JSON text of a revision: `revision` as digits, which JSON.stringify cannot write. */
function controllerRevision(name: string, app: string, revision: string, image: string): string {
  const data = { spec: { template: { ...template(app, image), $patch: 'replace' } } };
  const head = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: { name, labels: { app } },
  };
  return `${JSON.stringify(head).slice(0, -1)},"revision":${revision},"data":${JSON.stringify(data)}}`;
}

describe('int64 revisions', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const ns = 'int64-e2e';
  const kc = (...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  /** `name revision` lines of the ControllerRevisions labelled `app=<app>`, by revision. */
  const revisions = async (app: string) =>
    (
      await kc(
        'get',
        'controllerrevisions',
        '-l',
        `app=${app}`,
        '-o',
        'jsonpath={range .items[*]}{.metadata.name} {.revision}{"\\n"}{end}',
      )
    )
      .trim()
      .split('\n')
      .map((l) => l.split(' ') as [string, string])
      .sort((a, b) => (BigInt(a[1]) < BigInt(b[1]) ? -1 : 1));

  before(async () => {
    h = await support.startHarness();
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed for the int64 tests');
    k = found;
    await support.createNamespace(h, ns);
  });
  after(() => support.stopHarness(h));

  it('a ControllerRevision keeps revision 3546343826724305832 exactly', async () => {
    await k.ok(['-n', ns, 'create', '-f', '-'], {
      input: controllerRevision('big', 'solo', BIG, 'web:v1'),
    });
    assert.match(
      await kc('get', 'controllerrevision', 'big', '-o', 'json'),
      /"revision": 3546343826724305832\n/,
    );
    assert.match(
      await kc('get', 'controllerrevision', 'big'),
      /big\s+<none>\s+3546343826724305832\s/,
    );
    await kc('patch', 'controllerrevision', 'big', '--type=merge', '-p', `{"revision":${big(8)}}`);
    assert.equal(
      await kc('get', 'controllerrevision', 'big', '-o', 'jsonpath={.revision}'),
      big(8),
    );
  });

  it('the StatefulSet controller numbers revisions after an int64 history', async () => {
    // An orphan revision of another template: the set adopts it and numbers its own after it.
    await k.ok(['-n', ns, 'create', '-f', '-'], {
      input: controllerRevision('web-old', 'web', BIG, 'web:v0'),
    });
    const set = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        serviceName: 'web',
        selector: { matchLabels: { app: 'web' } },
        template: template('web', 'web:v1'),
      },
    };
    await k.ok(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify(set) });
    await kc('rollout', 'status', 'statefulset/web', '--timeout=60s');
    const first = await revisions('web');
    assert.deepEqual(
      first.map(([, r]) => r),
      [BIG, big(1)],
    );
    const v1 = first[1]![0];

    await kc('set', 'image', 'statefulset/web', 'c=web:v2');
    await kc('rollout', 'status', 'statefulset/web', '--timeout=60s');
    assert.deepEqual(
      (await revisions('web')).map(([, r]) => r),
      [BIG, big(1), big(2)],
    );
    assert.match(
      await kc('rollout', 'history', 'statefulset/web'),
      new RegExp(`\n${big(2)}\\s+<none>`),
    );

    // Back to v1: its revision moves to the next number, as upstream re-numbers it.
    await kc('rollout', 'undo', 'statefulset/web');
    await kc('rollout', 'status', 'statefulset/web', '--timeout=60s');
    const after = await revisions('web');
    assert.deepEqual(after.at(-1), [v1, big(3)]);
    assert.equal(
      await kc(
        'get',
        'statefulset',
        'web',
        '-o',
        'jsonpath={.spec.template.spec.containers[0].image}',
      ),
      'web:v1',
    );
  });

  it('the Deployment controller adopts an int64 revision and numbers the next one', async () => {
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: 'd-old',
        labels: { app: 'd' },
        annotations: { 'deployment.kubernetes.io/revision': BIG },
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'd' } },
        template: template('d', 'web:v0'),
      },
    };
    await k.ok(['-n', ns, 'create', '-f', '-'], { input: JSON.stringify(rs) });
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'd' } },
        template: template('d', 'web:v1'),
      },
    };
    await k.ok(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify(d) });
    await kc('rollout', 'status', 'deployment/d', '--timeout=60s');
    const annotation = 'jsonpath={.metadata.annotations.deployment\\.kubernetes\\.io/revision}';
    assert.equal(await kc('get', 'deployment', 'd', '-o', annotation), big(1));
    await kc('rollout', 'undo', 'deployment/d', `--to-revision=${BIG}`);
    await kc('rollout', 'status', 'deployment/d', '--timeout=60s');
    assert.equal(await kc('get', 'deployment', 'd', '-o', annotation), big(2));
    assert.equal(await kc('get', 'replicaset', 'd-old', '-o', annotation), big(2));
  });
});
