/**
 * The legacy rollback annotation on a running `fleetyard up`, driven by kubectl as a user of
 * the old `spec.rollbackTo` would: `kubectl annotate deploy … deprecated.deployment.rollback.to=N`
 * rolls the template back to revision N (0: the previous one), the annotation disappears, and
 * `kubectl get events` tells what happened, with upstream's reasons and messages for the
 * rollback, a revision that does not exist, and a revision holding the current template.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as support from './testing/client-node-harness.js';
import { type Kubectl, kubectl } from './testing/kubectl.js';

const ROLLBACK_TO = 'deprecated.deployment.rollback.to';
const REVISION = 'deployment.kubernetes.io/revision';

interface Deployment {
  metadata: { annotations?: Record<string, string> };
  spec: { template: { spec: { containers: { image: string }[] } } };
}

interface EventList {
  items: { type: string; reason: string; message: string; involvedObject: { name: string } }[];
}

function deployment(image: string): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: { terminationGracePeriodSeconds: 0, containers: [{ name: 'web', image }] },
      },
    },
  };
}

describe('deprecated.deployment.rollback.to', () => {
  let h: support.Harness | undefined;
  let k: Kubectl;
  const ns = 'rollback-e2e';
  const kc = (...args: string[]) => k.ok(['-n', ns, ...args], { timeoutMs: 60_000 });
  const read = async (): Promise<Deployment> =>
    JSON.parse(await kc('get', 'deployment', 'd', '-o', 'json')) as Deployment;
  const image = (d: Deployment) => d.spec.template.spec.containers[0]?.image;
  const events = async (reason: string) => {
    const list = JSON.parse(await kc('get', 'events', '-o', 'json')) as EventList;
    return list.items
      .filter((e) => e.involvedObject.name === 'd' && e.reason === reason)
      .map((e) => `${e.type} ${e.reason} ${e.message}`);
  };

  /** Annotates, then waits until the controller has removed the annotation again. */
  async function requestRollback(to: string): Promise<Deployment> {
    await kc('annotate', 'deployment', 'd', `${ROLLBACK_TO}=${to}`);
    let d: Deployment | undefined;
    await support.waitFor(
      `the controller to remove ${ROLLBACK_TO}=${to}`,
      async () => {
        d = await read();
        return d.metadata.annotations?.[ROLLBACK_TO] === undefined;
      },
      { timeoutMs: 30_000 },
    );
    return d!;
  }

  before(async () => {
    h = await support.startHarness();
    const found = kubectl('1.33', h.cluster.kubeconfig);
    assert.ok(found, 'kubectl.1.33 is needed for the rollback tests');
    k = found;
    await support.createNamespace(h, ns);
    for (const v of ['web:v1', 'web:v2']) {
      await k.ok(['-n', ns, 'apply', '-f', '-'], { input: JSON.stringify(deployment(v)) });
      await kc('rollout', 'status', 'deployment/d', '--timeout=60s');
    }
  });
  after(() => support.stopHarness(h));

  it('rolls the template back to revision 1 and records DeploymentRollback', async () => {
    const d = await requestRollback('1');
    assert.equal(image(d), 'web:v1');
    await kc('rollout', 'status', 'deployment/d', '--timeout=60s');
    const rolled = await read();
    assert.equal(image(rolled), 'web:v1');
    // The rollback is a new rollout: revision 1's ReplicaSet moves to revision 3.
    assert.equal(rolled.metadata.annotations?.[REVISION], '3');
    assert.deepEqual(await events('DeploymentRollback'), [
      'Normal DeploymentRollback Rolled back deployment "d" to revision 1',
    ]);
    assert.match(await kc('get', 'events'), /DeploymentRollback\s+deployment\/d\s+Rolled back/);
  });

  it('0 rolls back to the previous revision', async () => {
    const d = await requestRollback('0');
    assert.equal(image(d), 'web:v2');
    await kc('rollout', 'status', 'deployment/d', '--timeout=60s');
    assert.ok(
      (await events('DeploymentRollback')).includes(
        'Normal DeploymentRollback Rolled back deployment "d" to revision 2',
      ),
    );
  });

  it('a revision that does not exist: DeploymentRollbackRevisionNotFound, template kept', async () => {
    const d = await requestRollback('42');
    assert.equal(image(d), 'web:v2');
    assert.deepEqual(await events('DeploymentRollbackRevisionNotFound'), [
      'Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to.',
    ]);
  });

  it('the current template: DeploymentRollbackTemplateUnchanged', async () => {
    const revision = (await read()).metadata.annotations?.[REVISION] ?? '';
    const d = await requestRollback(revision);
    assert.equal(image(d), 'web:v2');
    assert.equal(d.metadata.annotations?.[REVISION], revision, 'no new revision');
    assert.deepEqual(await events('DeploymentRollbackTemplateUnchanged'), [
      'Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "d"',
    ]);
  });
});
