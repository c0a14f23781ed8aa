/**
 * Deletion and waiting across the matrix: `delete --cascade=background|orphan|foreground` with
 * the default `--wait` (the finalizers orphan/foregroundDeletion are released by the test when
 * no garbage collector does it), `--dry-run=server` deleting nothing, and `kubectl wait` for a
 * jsonpath value (a PVC's status.phase written through /status) and for deletion.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  configMap,
  describeKubectl,
  type KubeObject,
  manifest,
  pollUntil,
  runPending,
} from './testing/kubectl-fixtures.js';
import {
  clean,
  deploymentWith,
  MATRIX_VERSIONS,
  matrixCluster,
  matrixNamespace,
  objectPath,
  pvc,
  readsMissing,
  waitsForGone,
} from './testing/matrix-fixtures.js';

const { current, audit } = matrixCluster();

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const n = matrixNamespace(s, audit, 'life');
    const { ns, kc, run, pipe, read } = n;
    const create = async (...objects: KubeObject[]) =>
      clean(await pipe(manifest(...objects), 'create', '-f', '-'), 'create');
    const deployPath = (name: string) => objectPath(ns, 'deployments', name, 'apps');
    const gone = async (kind: string, resource: string, name: string) => {
      const r = await run('get', kind, name);
      assert.equal(r.code, 1, `${kind}/${name} still exists`);
      assert.equal(r.stderr, `Error from server (NotFound): ${resource} "${name}" not found\n`);
    };
    /**
     * Waits until the object carries a deletionTimestamp, then (when a garbage collector has
     * not already finished) empties its finalizers the way a controller would.
     */
    const finishDeletion = async (kind: string, name: string, finalizer: string) => {
      const terminating = await pollUntil(`${kind}/${name} terminating`, async () => {
        const r = await run('get', kind, name, '-o', 'json');
        if (r.code !== 0) return { gone: true, finalizers: [] as string[] };
        const o = JSON.parse(r.stdout) as {
          metadata: { deletionTimestamp?: string; finalizers?: string[] };
        };
        return o.metadata.deletionTimestamp
          ? { gone: false, finalizers: o.metadata.finalizers ?? [] }
          : undefined;
      });
      if (terminating.gone) return;
      assert.ok(terminating.finalizers.includes(finalizer), terminating.finalizers.join(','));
      await run('patch', kind, name, '--type=merge', '-p', '{"metadata":{"finalizers":null}}');
    };

    it('delete --cascade=background: gone when kubectl returns', async () => {
      audit.expect(waitsForGone(deployPath('bg')), readsMissing(deployPath('bg')));
      await create(deploymentWith('bg', [{ name: 'web', image: 'nginx:1.27' }]));
      assert.equal(
        await kc('delete', 'deployment', 'bg', '--cascade=background'),
        'deployment.apps "bg" deleted\n',
      );
      await gone('deployment', 'deployments.apps', 'bg');
    });

    for (const [cascade, finalizer] of [
      ['orphan', 'orphan'],
      ['foreground', 'foregroundDeletion'],
    ] as const) {
      it(`delete --cascade=${cascade} waits until the ${finalizer} finalizer is gone`, async () => {
        const name = `cascade-${cascade}`;
        audit.expect(waitsForGone(deployPath(name)), readsMissing(deployPath(name)));
        await create(deploymentWith(name, [{ name: 'web', image: 'nginx:1.27' }]));
        const pending = runPending(s.k(), [
          '-n',
          ns,
          'delete',
          'deployment',
          name,
          `--cascade=${cascade}`,
          '--timeout=30s',
        ]);
        await finishDeletion('deployment', name, finalizer);
        const r = await pending.result;
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout, `deployment.apps "${name}" deleted\n`);
        await gone('deployment', 'deployments.apps', name);
      });
    }

    it('delete --dry-run=server reports a delete and keeps the object', async () => {
      await create(configMap('kept'));
      const before1 = await read('configmap', 'kept');
      assert.equal(
        await kc('delete', 'configmap', 'kept', '--dry-run=server'),
        'configmap "kept" deleted (server dry run)\n',
      );
      const after1 = await read('configmap', 'kept');
      assert.equal(after1.metadata.resourceVersion, before1.metadata.resourceVersion);
      assert.equal(after1.metadata.deletionTimestamp, undefined);
    });

    it("wait --for=jsonpath='{.status.phase}'=Bound sees the status written through /status", async () => {
      await create(pvc('data'));
      assert.equal((await read('pvc', 'data')).status?.phase, 'Pending');
      const waiting = runPending(s.k(), [
        '-n',
        ns,
        'wait',
        '--for=jsonpath={.status.phase}=Bound',
        'pvc/data',
        '--timeout=30s',
      ]);
      assert.equal(
        await kc(
          'patch',
          'pvc',
          'data',
          '--subresource=status',
          '--type=merge',
          '-p',
          '{"status":{"phase":"Bound"}}',
        ),
        'persistentvolumeclaim/data patched\n',
      );
      const r = await waiting.result;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'persistentvolumeclaim/data condition met\n');
    });

    it('wait --for=delete returns once a held object is finally removed', async () => {
      const path = objectPath(ns, 'configmaps', 'held');
      audit.expect(waitsForGone(path), readsMissing(path));
      await create(configMap('held', { finalizers: ['example.com/hold'] }));
      await kc('delete', 'configmap', 'held', '--wait=false');
      const waiting = runPending(s.k(), [
        '-n',
        ns,
        'wait',
        '--for=delete',
        'configmap/held',
        '--timeout=30s',
      ]);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(waiting.settled(), false, 'wait returned while the finalizer was there');
      await kc(
        'patch',
        'configmap',
        'held',
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":null}}',
      );
      const r = await waiting.result;
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'configmap/held condition met\n');
      await gone('configmap', 'configmaps', 'held');
    });
  });
}
