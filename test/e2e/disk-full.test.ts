/**
 * The real `fleetyard up` on a real 20 MiB filesystem (tmpfs, mounted by the test: root only)
 * that fills up: ConfigMaps of 256 KiB are created until the disk refuses one. Then nothing
 * acknowledged is lost, reads are served, `/readyz` fails with the reason in upstream's
 * format, a delete still works (the store's space reserve), a filler file placed on the same
 * filesystem beforehand is removed, and writes succeed again without a restart; a watch opened
 * before saw exactly the acknowledged writes, in order; a restart finds them all.
 *
 * Where the filesystem cannot be mounted (not root, no tmpfs), the test is skipped with the
 * reason; the same sequence with an injected fault runs in `src/apiserver/health.test.ts`.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_ONLY, type Cluster, startCluster } from './testing/cluster.js';

interface Reply {
  readonly status: number;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

function call(c: Cluster, method: string, path: string, body?: unknown): Promise<Reply> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { authorization: `Bearer ${c.token}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, c.url), { method, ca: c.ca, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(text) as Record<string, unknown>;
        } catch {
          // health endpoints answer text
        }
        resolve({ status: res.statusCode ?? 0, text, json });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

interface WatchEvent {
  readonly type: string;
  readonly object: { metadata: { name: string; resourceVersion: string } };
}

/** A watch on the ConfigMaps of `default` from `rv`, collecting events until stopped. */
function watchConfigMaps(c: Cluster, rv: string): { events: WatchEvent[]; stop: () => void } {
  const events: WatchEvent[] = [];
  const path = `/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}`;
  const headers = { authorization: `Bearer ${c.token}` };
  const req = request(new URL(path, c.url), { ca: c.ca, headers }, (res: IncomingMessage) => {
    let buffered = '';
    res.setEncoding('utf8');
    res.on('data', (d: string) => {
      buffered += d;
      let nl = buffered.indexOf('\n');
      while (nl >= 0) {
        if (nl > 0) events.push(JSON.parse(buffered.slice(0, nl)) as WatchEvent);
        buffered = buffered.slice(nl + 1);
        nl = buffered.indexOf('\n');
      }
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.end();
  return { events, stop: () => req.destroy() };
}

/** Mounts a 20 MiB tmpfs; the reason when it cannot. */
function mountSmallDisk(): { dir: string; unmount: () => void } | { reason: string } {
  if (process.platform !== 'linux') return { reason: `tmpfs needs Linux, not ${process.platform}` };
  if (process.getuid?.() !== 0) return { reason: 'mounting a tmpfs needs root' };
  const dir = mkdtempSync(join(tmpdir(), 'fleetyard-disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=20m', 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    return { reason: `mount -t tmpfs failed: ${stderr || String(err)}` };
  }
  return {
    dir,
    unmount: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const BASE = '/api/v1/namespaces/default/configmaps';
/** 256 KiB of data: about 80 fill a 20 MiB disk. */
const BIG = 'x'.repeat(256 * 1024);

function configMap(name: string, data = BIG): unknown {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { blob: data } };
}

async function until(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('fleetyard up on a full disk', () => {
  it('refuses writes cleanly, keeps serving, and writes again once space is freed', async (t) => {
    const disk = mountSmallDisk();
    if ('reason' in disk) {
      t.diagnostic(`not mounted: ${disk.reason}`);
      t.skip(`${disk.reason}; the injected-fault version runs in src/apiserver/health.test.ts`);
      return;
    }
    let cluster: Cluster | undefined;
    try {
      const dataDir = join(disk.dir, 'data');
      mkdirSync(dataDir);
      // Placed before the fill, on the same filesystem: removing it is how space comes back.
      const filler = join(disk.dir, 'filler');
      writeFileSync(filler, Buffer.alloc(4 * 1024 * 1024));
      cluster = await startCluster({ dataDir, args: API_ONLY });
      const c = cluster;

      const start = await call(c, 'GET', BASE);
      const rv0 = String((start.json.metadata as { resourceVersion: string }).resourceVersion);
      const watch = watchConfigMaps(c, rv0);

      // Fill the disk through the API.
      const acknowledged = new Map<string, string>();
      let refused: Reply | undefined;
      for (let i = 0; i < 200 && refused === undefined; i++) {
        const r = await call(c, 'POST', BASE, configMap(`fill-${i}`));
        if (r.status === 201) {
          const meta = r.json.metadata as { resourceVersion: string };
          acknowledged.set(`fill-${i}`, meta.resourceVersion);
        } else {
          refused = r;
        }
      }
      assert.ok(refused, 'the disk never filled');
      t.diagnostic(`${acknowledged.size} ConfigMaps of 256 KiB fitted before the disk was full`);
      assert.equal(refused.status, 500, refused.text);
      assert.equal(refused.json.reason, undefined);
      assert.match(String(refused.json.message), /^storage: database space exceeded/);

      // Not ready, with the reason withheld on the public endpoint and given on the check's own.
      const ready = await call(c, 'GET', '/readyz?verbose');
      assert.equal(ready.status, 500);
      assert.equal(
        ready.text,
        '[+]ping ok\n[+]storage ok\n[-]storage-readiness failed: reason withheld\nreadyz check failed\n',
      );
      const reason = await call(c, 'GET', '/readyz/storage-readiness');
      assert.match(reason.text, /storage unwritable since .*database space exceeded/);
      assert.equal((await call(c, 'GET', '/livez')).text, 'ok');
      assert.match((await call(c, 'GET', '/metrics')).text, /^fleetyard_storage_writable 0$/m);

      // Reads are served, and every acknowledged write is there as acknowledged.
      const listed = await call(c, 'GET', BASE);
      const items = listed.json.items as { metadata: { name: string; resourceVersion: string } }[];
      assert.deepEqual(
        new Map(items.map((i) => [i.metadata.name, i.metadata.resourceVersion])),
        acknowledged,
      );
      // Other writes fail fast while the disk is full.
      assert.equal((await call(c, 'POST', BASE, configMap('small', 'x'))).status, 500);

      // A delete still works on the full disk (a small tombstone, in the store's reserve).
      const deleted = await call(c, 'DELETE', `${BASE}/fill-0`);
      assert.equal(deleted.status, 200, deleted.text);
      acknowledged.delete('fill-0');

      // Free space: writes resume without a restart.
      unlinkSync(filler);
      await until('/readyz to pass', async () => (await call(c, 'GET', '/readyz')).status === 200);
      const after = await call(c, 'POST', BASE, configMap('after', 'small'));
      assert.equal(after.status, 201, after.text);
      const afterRv = (after.json.metadata as { resourceVersion: string }).resourceVersion;
      assert.equal((await call(c, 'GET', '/readyz')).text, 'ok');
      assert.match((await call(c, 'GET', '/metrics')).text, /^fleetyard_storage_writable 1$/m);

      // The outage is recorded as Events once writes resume.
      await until('the storage Events', async () => {
        const r = await call(c, 'GET', '/api/v1/namespaces/default/events');
        const reasons = (r.json.items as { reason: string }[]).map((e) => e.reason);
        return reasons.includes('StorageFull') && reasons.includes('StorageWritable');
      });

      // The watch saw the acknowledged writes, in order, gapless in their own order, and none
      // that was refused.
      await until('the watch to catch up', async () =>
        watch.events.some((e) => e.object.metadata.resourceVersion === afterRv),
      );
      watch.stop();
      const seen = watch.events.map((e) => [e.type, e.object.metadata.name]);
      assert.deepEqual(seen, [
        ...[...acknowledged.keys(), 'fill-0']
          .sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)))
          .map((n) => ['ADDED', n]),
        ['DELETED', 'fill-0'],
        ['ADDED', 'after'],
      ]);
      const rvs = watch.events.map((e) => Number(e.object.metadata.resourceVersion));
      assert.deepEqual(
        rvs,
        [...rvs].sort((a, b) => a - b),
      );

      // A restart on the same disk finds every acknowledged write.
      assert.equal(await c.stop(), 0);
      cluster = await startCluster({ dataDir, args: API_ONLY });
      const relisted = await call(cluster, 'GET', BASE);
      const names = (relisted.json.items as { metadata: { name: string } }[]).map(
        (i) => i.metadata.name,
      );
      assert.deepEqual(names.sort(), [...acknowledged.keys(), 'after'].sort());
    } finally {
      if (cluster) await cluster.stop();
      disk.unmount();
    }
  });
});
