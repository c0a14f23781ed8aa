import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMemoryBackend } from '../storage/memory/backend.js';
import {
  type FaultyJournal,
  faultyJournal,
  sqliteFull,
} from '../storage/testing/faulty-journal.js';
import { renderHealth } from './health.js';
import { startTestServer, type TestServer } from './testing/test-server.js';

const cm = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data: { k: 'v' },
});

describe('health endpoints in kube-apiserver format', () => {
  it('lists checks with ?verbose, withholds reasons, and honours ?exclude', () => {
    const ok = { name: 'ping', check: () => undefined };
    const bad = { name: 'storage-readiness', check: () => 'disk full' };
    const q = (s: string) => new URLSearchParams(s);
    assert.deepEqual(renderHealth('readyz', [ok], q('')), { code: 200, text: 'ok' });
    assert.deepEqual(renderHealth('readyz', [ok], q('verbose')), {
      code: 200,
      text: '[+]ping ok\nreadyz check passed\n',
    });
    assert.deepEqual(renderHealth('readyz', [ok, bad], q('')), {
      code: 500,
      text: '[+]ping ok\n[-]storage-readiness failed: reason withheld\nreadyz check failed\n',
    });
    assert.deepEqual(renderHealth('readyz', [ok, bad], q('exclude=storage-readiness&exclude=x')), {
      code: 200,
      text: 'ok',
    });
    assert.equal(
      renderHealth('livez', [ok, bad], q('verbose&exclude=storage-readiness&exclude=x')).text,
      '[+]ping ok\n[+]storage-readiness excluded: ok\nwarn: some health checks cannot be excluded: no matches for "x"\nlivez check passed\n',
    );
  });
});

describe('API server on a full disk', () => {
  let t: TestServer;
  let journal: FaultyJournal;
  before(async () => {
    const backend = createMemoryBackend({
      probeIntervalMs: 5,
      wrapJournal: (inner) => {
        journal = faultyJournal(inner);
        return journal;
      },
    });
    t = await startTestServer({ backend });
  });
  after(() => t.close());

  it('answers 500 with the storage message, reports not ready, serves reads, then recovers', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    assert.equal((await t.request('POST', base, { body: cm('before') })).status, 201);
    journal.fault = sqliteFull();
    const refused = await t.request('POST', base, { body: cm('during') });
    assert.equal(refused.status, 500);
    assert.equal(refused.body.reason, undefined, 'unclassified, as upstream answers NOSPACE');
    assert.match(String(refused.body.message), /^storage: database space exceeded/);

    const ready = await t.request('GET', '/readyz');
    assert.equal(ready.status, 500);
    assert.equal(
      ready.text,
      '[+]ping ok\n[+]storage ok\n[-]storage-readiness failed: reason withheld\nreadyz check failed\n',
    );
    const one = await t.request('GET', '/readyz/storage-readiness');
    assert.equal(one.status, 500);
    assert.match(
      one.text,
      /^internal server error: storage unwritable since .*database space exceeded/,
    );
    assert.equal((await t.request('GET', '/livez')).text, 'ok');
    assert.equal((await t.request('GET', '/healthz')).text, 'ok');
    assert.equal((await t.request('GET', '/readyz/storage')).text, 'ok');
    assert.equal((await t.request('GET', '/readyz/nope')).status, 404);

    assert.equal((await t.request('GET', `${base}/before`)).status, 200);
    assert.equal((await t.request('GET', `${base}/during`)).status, 404);
    assert.ok(Array.isArray((await t.request('GET', base)).body.items));

    const metrics = await t.request('GET', '/metrics');
    assert.match(metrics.text, /^fleetyard_storage_writable 0$/m);
    assert.match(metrics.text, /^fleetyard_storage_unwritable_total 1$/m);

    journal.fault = undefined;
    for (let i = 0; i < 200 && (await t.request('GET', '/readyz')).status !== 200; i++) {
      await sleep(5);
    }
    assert.equal((await t.request('GET', '/readyz')).text, 'ok');
    assert.equal((await t.request('POST', base, { body: cm('after') })).status, 201);
    assert.match((await t.request('GET', '/metrics')).text, /^fleetyard_storage_writable 1$/m);

    // The outage is recorded as Events once writes resume.
    let reasons: unknown[] = [];
    for (let i = 0; i < 100 && reasons.length < 2; i++) {
      const events = await t.request('GET', '/api/v1/namespaces/default/events');
      reasons = (events.body.items as { reason: string }[]).map((e) => e.reason);
      if (reasons.length < 2) await sleep(5);
    }
    assert.deepEqual(reasons.sort(), ['StorageFull', 'StorageWritable']);
  });
});
