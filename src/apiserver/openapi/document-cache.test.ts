import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createBuiltinResources } from '../../api/kinds/index.js';
import type { ResourceDefinition } from '../../api/resource.js';
import { ResourceRegistry } from '../registry.js';
import { OpenApiDocumentCache } from './document-cache.js';
import { widgetDefinition } from './testing/document-checks.js';
import { fixtureSchemas } from './testing/fixture-schemas.js';

const builtins = createBuiltinResources();
const schemas = fixtureSchemas(builtins);
const fixedNow = () => new Date('2026-01-02T03:04:05Z');

function setup(): { registry: ResourceRegistry; cache: OpenApiDocumentCache } {
  const registry = new ResourceRegistry(builtins);
  const cache = new OpenApiDocumentCache(registry, schemas, fixedNow);
  registry.onChange(() => cache.invalidate());
  return { registry, cache };
}

function hashes(cache: OpenApiDocumentCache): Map<string, string> {
  return new Map(cache.keys().map((k) => [k, cache.groupVersion(k)!.hash]));
}

function rootPaths(cache: OpenApiDocumentCache): Record<string, { serverRelativeURL: string }> {
  return (
    JSON.parse(cache.root().json.toString()) as {
      paths: Record<string, { serverRelativeURL: string }>;
    }
  ).paths;
}

describe('OpenApiDocumentCache', () => {
  it('lists every served group-version in the root, each URL with its document hash', () => {
    const { cache } = setup();
    const paths = rootPaths(cache);
    const want = [
      ...new Set(
        builtins.map((d) => (d.group === '' ? `api/${d.version}` : `apis/${d.group}/${d.version}`)),
      ),
    ].sort();
    assert.deepEqual(Object.keys(paths), want);
    for (const [key, { serverRelativeURL }] of Object.entries(paths)) {
      assert.equal(serverRelativeURL, `/openapi/v3/${key}?hash=${cache.groupVersion(key)!.hash}`);
    }
  });

  it('changes hashes only where a CRD changed what is served', () => {
    const { registry, cache } = setup();
    const before = hashes(cache);
    const rootBefore = cache.root().hash;

    registry.add(widgetDefinition());
    const afterAdd = hashes(cache);
    assert.ok(afterAdd.has('apis/example.com/v1'));
    for (const [k, h] of before) assert.equal(afterAdd.get(k), h, `${k} changed`);
    assert.notEqual(cache.root().hash, rootBefore);
    assert.ok('apis/example.com/v1' in rootPaths(cache));

    // A second version of the same kind set: a new group-version, nothing else moves.
    registry.add(widgetDefinition({ version: 'v2' }));
    assert.equal(hashes(cache).get('apis/example.com/v1'), afterAdd.get('apis/example.com/v1'));

    // A changed schema (a new definition object) changes that document's hash.
    registry.add(
      widgetDefinition({ schema: { type: 'object', properties: { spec: { type: 'string' } } } }),
    );
    assert.notEqual(hashes(cache).get('apis/example.com/v1'), afterAdd.get('apis/example.com/v1'));

    registry.remove('example.com', 'v1', 'widgets');
    registry.remove('example.com', 'v2', 'widgets');
    assert.deepEqual(hashes(cache), before);
    assert.equal(cache.root().hash, rootBefore);
  });

  it('keeps hashes, buffers and times when nothing served changed', () => {
    const { registry, cache } = setup();
    const doc = cache.groupVersion('apis/apps/v1');
    const root = cache.root();
    const deployment = registry.get('apps', 'v1', 'deployments')!;
    registry.add({ ...deployment }); // an equal copy: rebuilt, same bytes
    cache.invalidate();
    assert.equal(cache.groupVersion('apis/apps/v1')!.hash, doc!.hash);
    assert.equal(cache.groupVersion('apis/apps/v1')!.json, doc!.json);
    assert.equal(cache.root(), root);
  });

  it('adds a CRD in an existing group-version to that document only', () => {
    const { registry, cache } = setup();
    const before = hashes(cache);
    registry.add(widgetDefinition({ group: 'apps', plural: 'widgets' }));
    const after = hashes(cache);
    for (const [k, h] of before) {
      if (k === 'apis/apps/v1') assert.notEqual(after.get(k), h);
      else assert.equal(after.get(k), h, k);
    }
  });

  it('rebuilds the v2 document when the served set changes', () => {
    const { registry, cache } = setup();
    const v2 = cache.v2();
    assert.equal(cache.v2(), v2);
    registry.add(widgetDefinition());
    assert.notEqual(cache.v2().hash, v2.hash);
    assert.ok(
      cache
        .v2()
        .json.toString()
        .includes('/apis/example.com/v1/namespaces/{namespace}/widgets/{name}'),
    );
  });

  it('depends only on what is served, not on the history of changes (property)', () => {
    const crds: ResourceDefinition[] = [
      widgetDefinition(),
      widgetDefinition({ version: 'v2' }),
      widgetDefinition({ group: 'apps', plural: 'widgets' }),
      widgetDefinition({ group: 'other.io', namespaced: false, schema: undefined }),
    ];
    const op = fc.record({
      add: fc.boolean(),
      i: fc.nat({ max: crds.length - 1 }),
      read: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const { registry, cache } = setup();
        for (const o of ops) {
          const d = crds[o.i]!;
          if (o.add) registry.add(d);
          else registry.remove(d.group, d.version, d.plural);
          if (o.read) cache.root();
        }
        const fresh = new OpenApiDocumentCache(
          new ResourceRegistry(registry.all()),
          schemas,
          fixedNow,
        );
        assert.deepEqual(hashes(cache), hashes(fresh));
        assert.equal(cache.root().hash, fresh.root().hash);
      }),
      { numRuns: 40 },
    );
  });
});
