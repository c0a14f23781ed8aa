/**
 * kubectl delete: plain, the three --cascade policies (API only, without the garbage collector, so orphan and
 * foreground leave their finalizer on the object), --wait on a custom finalizer released while
 * kubectl waits, -l, --ignore-not-found, --dry-run=server and --grace-period=0 --force.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { API_ONLY } from './testing/cluster.js';
import {
  clusterForFile,
  configMap,
  createFromManifest,
  deployment,
  describeKubectl,
  inNamespace,
  KUBECTL_VERSIONS,
  lines,
  namespaceObject,
  pod,
  pollUntil,
  runPending,
} from './testing/kubectl-fixtures.js';

const current = clusterForFile({ args: API_ONLY });

for (const version of KUBECTL_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const ns = `delete-${s.slug}`;
    const { kc, run, read, create } = inNamespace(s, ns);
    const assertGone = async (resource: string, kind: string, name: string): Promise<void> => {
      const r = await run('get', kind, name);
      assert.equal(r.code, 1, `${kind}/${name} still exists: ${r.stdout}`);
      assert.equal(r.stderr, `Error from server (NotFound): ${resource} "${name}" not found\n`);
    };
    /** Empties `finalizers` with a merge patch (what a controller does when it is done). */
    const release = (kind: string, name: string) =>
      kc('patch', kind, name, '--type=merge', '-p', '{"metadata":{"finalizers":null}}');

    before(async () => {
      await createFromManifest(s.k(), undefined, namespaceObject(ns));
    });

    it('delete, then NotFound; --ignore-not-found exits 0 silently', async () => {
      await create(configMap('plain'));
      assert.equal(await kc('delete', 'configmap', 'plain'), 'configmap "plain" deleted\n');
      await assertGone('configmaps', 'configmap', 'plain');

      const again = await run('delete', 'configmap', 'plain');
      assert.equal(again.code, 1);
      assert.equal(again.stderr, 'Error from server (NotFound): configmaps "plain" not found\n');

      const ignored = await run('delete', 'configmap', 'plain', '--ignore-not-found');
      assert.equal(ignored.code, 0);
      assert.equal(ignored.stdout, '');
      assert.equal(ignored.stderr, '');
    });

    it('--cascade=background removes the object at once', async () => {
      await create(deployment('bg'));
      assert.equal(
        await kc('delete', 'deployment', 'bg', '--cascade=background'),
        'deployment.apps "bg" deleted\n',
      );
      await assertGone('deployments.apps', 'deployment', 'bg');
    });

    it('--cascade=orphan --wait=false leaves the orphan finalizer and a deletionTimestamp', async () => {
      await create(deployment('orphaned'));
      const before1 = await read('deployment', 'orphaned');
      assert.equal(
        await kc('delete', 'deployment', 'orphaned', '--cascade=orphan', '--wait=false'),
        'deployment.apps "orphaned" deleted\n',
      );
      const deleting = await read('deployment', 'orphaned');
      assert.deepEqual(deleting.metadata.finalizers, ['orphan']);
      assert.match(deleting.metadata.deletionTimestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(deleting.metadata.deletionGracePeriodSeconds, 0);
      assert.equal(deleting.metadata.uid, before1.metadata.uid);
      assert.equal(deleting.metadata.generation, (before1.metadata.generation ?? 0) + 1);

      await release('deployment', 'orphaned');
      await assertGone('deployments.apps', 'deployment', 'orphaned');
    });

    it('--cascade=foreground --wait=false leaves the foregroundDeletion finalizer', async () => {
      await create(deployment('foreground'));
      assert.equal(
        await kc('delete', 'deployment', 'foreground', '--cascade=foreground', '--wait=false'),
        'deployment.apps "foreground" deleted\n',
      );
      const deleting = await read('deployment', 'foreground');
      assert.deepEqual(deleting.metadata.finalizers, ['foregroundDeletion']);
      assert.ok(deleting.metadata.deletionTimestamp, 'deletionTimestamp is set');

      // Deleting again while it is terminating changes nothing and still succeeds.
      assert.equal(
        await kc('delete', 'deployment', 'foreground', '--cascade=foreground', '--wait=false'),
        'deployment.apps "foreground" deleted\n',
      );
      const still = await read('deployment', 'foreground');
      assert.equal(still.metadata.deletionTimestamp, deleting.metadata.deletionTimestamp);

      await release('deployment', 'foreground');
      await assertGone('deployments.apps', 'deployment', 'foreground');
    });

    it('--wait blocks until a custom finalizer is removed, then exits 0', async () => {
      await create(configMap('held', { finalizers: ['example.com/hold'] }));
      const pending = runPending(s.k(), ['-n', ns, 'delete', 'configmap', 'held', '--timeout=30s']);
      const terminating = await pollUntil('deletionTimestamp on configmap/held', async () => {
        const cm = await read('configmap', 'held');
        return cm.metadata.deletionTimestamp ? cm : undefined;
      });
      assert.deepEqual(terminating.metadata.finalizers, ['example.com/hold']);
      assert.equal(
        pending.settled(),
        false,
        'kubectl delete returned before the finalizer was removed',
      );

      assert.equal(await release('configmap', 'held'), 'configmap/held patched\n');
      const r = await pending.result;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'configmap "held" deleted\n');
      await assertGone('configmaps', 'configmap', 'held');
    });

    it('delete -l deletes exactly the matching objects', async () => {
      await create(
        configMap('x-one', { labels: { app: 'x' } }),
        configMap('x-two', { labels: { app: 'x' } }),
        configMap('y-one', { labels: { app: 'y' } }),
      );
      assert.deepEqual(lines(await kc('delete', 'configmaps', '-l', 'app=x')), [
        'configmap "x-one" deleted',
        'configmap "x-two" deleted',
      ]);
      assert.equal(await kc('get', 'configmaps', '-l', 'app', '-o', 'name'), 'configmap/y-one\n');

      const none = await run('delete', 'configmaps', '-l', 'app=x');
      assert.equal(none.code, 0);
      assert.equal(none.stdout, 'No resources found\n');
      assert.equal(none.stderr, '');
    });

    it('--dry-run=server reports the delete and the object survives', async () => {
      await create(configMap('dry'));
      const before1 = await read('configmap', 'dry');
      assert.equal(
        await kc('delete', 'configmap', 'dry', '--dry-run=server'),
        'configmap "dry" deleted (server dry run)\n',
      );
      const after1 = await read('configmap', 'dry');
      assert.equal(after1.metadata.uid, before1.metadata.uid);
      assert.equal(after1.metadata.resourceVersion, before1.metadata.resourceVersion);
      assert.equal(after1.metadata.deletionTimestamp, undefined);

      await create(configMap('dry-held', { finalizers: ['example.com/hold'] }));
      await kc('delete', 'configmap', 'dry-held', '--dry-run=server');
      assert.equal((await read('configmap', 'dry-held')).metadata.deletionTimestamp, undefined);
      await release('configmap', 'dry-held');
      await kc('delete', 'configmap', 'dry-held');
    });

    it('a pending pod is deleted at once; --grace-period=0 --force too', async () => {
      await create(pod('unscheduled'), pod('forced'));
      assert.equal(await kc('delete', 'pod', 'unscheduled'), 'pod "unscheduled" deleted\n');
      await assertGone('pods', 'pod', 'unscheduled');

      const r = await run('delete', 'pod', 'forced', '--grace-period=0', '--force');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'pod "forced" force deleted\n');
      assert.match(r.stderr, /^Warning: Immediate deletion does not wait for confirmation/);
      await assertGone('pods', 'pod', 'forced');
    });
  });
}
