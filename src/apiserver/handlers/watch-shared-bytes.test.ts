/**
 * Through the real request path, every watcher's stream is byte for byte what it would get
 * if it encoded every event alone: arbitrary objects (HTML characters, line separators,
 * astral characters), arbitrary selectors, writes in concurrent batches (so several events
 * share a flush and many watchers share a Buffer), and two served versions of one storage.
 *
 * The expected bytes come from the store's history with fresh, uncached encodings: the
 * conversion (`servedJson`) and the line are rebuilt for each watcher and event.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { stringifyJson } from '../../api/int64-json.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { StorageEvent } from '../../storage/backend.js';
import { parseRequestSelector } from '../selectors.js';
import { attributesOf } from '../store/attributes.js';
import { servedJson } from '../store/conversion.js';
import { listPrefix } from '../store/keys.js';
import { decodeObjectJson } from '../store/object-json.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';
import { freshEventLine, type LineEncoder, watchLineFor } from './watch-encoding.js';

interface RawWatch {
  readonly bytes: () => Buffer;
  /** Resolves once at least `n` bytes arrived (rejects after a generous 10 s). */
  readonly waitForBytes: (n: number) => Promise<void>;
  readonly close: () => void;
}

function rawWatch(t: TestServer, path: string): Promise<RawWatch> {
  const base = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: base.hostname, port: base.port, path }, (res) => {
      assert.equal(res.statusCode, 200);
      const parts: Buffer[] = [];
      let length = 0;
      const waiters: Array<() => void> = [];
      res.on('data', (c: Buffer) => {
        parts.push(c);
        length += c.length;
        for (const w of waiters.splice(0)) w();
      });
      resolve({
        bytes: () => Buffer.concat(parts),
        waitForBytes: (n) =>
          new Promise((ok, fail) => {
            const timer = setTimeout(() => fail(new Error(`${length} of ${n} bytes`)), 10_000);
            const check = (): void => {
              if (length >= n) {
                clearTimeout(timer);
                ok();
              } else waiters.push(check);
            };
            check();
          }),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The lines a watcher of `def` with `query` should get after `start`, encoded afresh. */
function expectedBytes(
  t: TestServer,
  def: ResourceDefinition,
  namespace: string,
  query: string,
  start: number,
): Buffer {
  const selector = parseRequestSelector(def, new URLSearchParams(query));
  const matches = (kv: StorageEvent['kv']): boolean =>
    selector.empty || selector.matches(attributesOf(def, kv));
  const fresh: LineEncoder = {
    line: (type, kv) => freshEventLine(type, { ...kv, value: servedJson(def, kv.value) }),
    left: (prev, revision) => {
      const obj = decodeObjectJson(def, servedJson(def, prev.value));
      obj.metadata = { ...obj.metadata, resourceVersion: String(revision) };
      return `${stringifyJson({ type: 'DELETED', object: obj })}\n`;
    },
  };
  const lines: string[] = [];
  const w = t.backend.watch(listPrefix(def, namespace), start, (events) => {
    for (const ev of events) {
      const line = watchLineFor(ev, matches, fresh);
      if (line !== undefined) lines.push(line);
    }
  });
  w.stop();
  return Buffer.from(lines.join(''), 'utf8');
}

const textArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.constantFrom('<b>', 'a&b', '\u2028', '😀'),
);

type Op =
  | {
      readonly kind: 'create' | 'update';
      readonly name: string;
      readonly app: string;
      readonly value: string;
    }
  | { readonly kind: 'delete'; readonly name: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('create' as const, 'update' as const),
    name: fc.constantFrom('a', 'b', 'c'),
    app: fc.constantFrom('x', 'y'),
    value: textArb,
  }),
  fc.record({ kind: fc.constant('delete' as const), name: fc.constantFrom('a', 'b', 'c') }),
);

const SELECTORS = [
  '',
  'labelSelector=app%3Dx',
  'labelSelector=app!%3Dx',
  'labelSelector=app%20in%20(x%2Cy)',
  'fieldSelector=metadata.name%3Db',
];

describe('watch bytes shared between watchers', () => {
  let t: TestServer;
  let round = 0;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  async function newNamespace(): Promise<string> {
    const ns = `w-${round++}`;
    const r = await t.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
    assert.equal(r.status, 201, r.text);
    return ns;
  }

  it('every watcher receives exactly the fresh encoding of its events', async () => {
    const def = t.server.registry.get('', 'v1', 'configmaps')!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...SELECTORS), { minLength: 1, maxLength: 8 }),
        fc.array(fc.array(opArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        async (selectors, batches) => {
          const ns = await newNamespace();
          const path = `/api/v1/namespaces/${ns}/configmaps`;
          const start = t.backend.currentRevision();
          const watches = await Promise.all(
            selectors.map((q) => rawWatch(t, `${path}?watch=true&resourceVersion=${start}&${q}`)),
          );
          for (const batch of batches) {
            // Concurrent: the batch's events reach the watchers in one flush.
            await Promise.all(
              batch.map((op) => {
                if (op.kind === 'delete') return t.request('DELETE', `${path}/${op.name}`);
                const body = {
                  metadata: { name: op.name, labels: { app: op.app } },
                  data: { v: op.value },
                };
                return op.kind === 'create'
                  ? t.request('POST', path, { body })
                  : t.request('PUT', `${path}/${op.name}`, { body });
              }),
            );
          }
          for (const [i, w] of watches.entries()) {
            const want = expectedBytes(t, def, ns, selectors[i]!, start);
            await w.waitForBytes(want.length);
            w.close();
            assert.ok(w.bytes().equals(want), `watcher ${i} (${selectors[i]})`);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('watchers of two served versions of one storage get their own version, byte for byte', async () => {
    const v1 = t.server.registry.get('autoscaling', 'v1', 'horizontalpodautoscalers')!;
    const v2 = t.server.registry.get('autoscaling', 'v2', 'horizontalpodautoscalers')!;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(v1, v2), fc.integer({ min: 1, max: 99 })), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(fc.constantFrom(v1, v2), { minLength: 1, maxLength: 6 }),
        async (writes, watcherDefs) => {
          const ns = await newNamespace();
          const pathOf = (d: ResourceDefinition): string =>
            `/apis/autoscaling/${d.version}/namespaces/${ns}/horizontalpodautoscalers`;
          const start = t.backend.currentRevision();
          const watches = await Promise.all(
            watcherDefs.map((d) => rawWatch(t, `${pathOf(d)}?watch=true&resourceVersion=${start}`)),
          );
          const scaleTargetRef = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
          for (const [i, [d, cpu]] of writes.entries()) {
            const spec =
              d === v1
                ? { scaleTargetRef, maxReplicas: 5, targetCPUUtilizationPercentage: cpu }
                : {
                    scaleTargetRef,
                    maxReplicas: 5,
                    metrics: [
                      {
                        type: 'Resource',
                        resource: {
                          name: 'cpu',
                          target: { type: 'Utilization', averageUtilization: cpu },
                        },
                      },
                    ],
                  };
            const body = {
              apiVersion: `autoscaling/${d.version}`,
              kind: 'HorizontalPodAutoscaler',
              metadata: { name: `h${i % 2}` },
              spec,
            };
            const r =
              i < 2
                ? await t.request('POST', pathOf(d), { body })
                : await t.request('PUT', `${pathOf(d)}/h${i % 2}`, { body });
            assert.ok(r.status < 300, r.text);
          }
          for (const [i, w] of watches.entries()) {
            const want = expectedBytes(t, watcherDefs[i]!, ns, '', start);
            await w.waitForBytes(want.length);
            w.close();
            assert.ok(w.bytes().equals(want), `watcher ${i} (${watcherDefs[i]!.version})`);
          }
        },
      ),
      { numRuns: 10 },
    );
  });
});
