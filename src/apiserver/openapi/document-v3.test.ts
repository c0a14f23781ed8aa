import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBuiltinResources } from '../../api/kinds/index.js';
import { REF_PREFIX } from '../../api/schema/types.js';
import {
  buildGroupVersionDocument,
  buildRootDocument,
  contentHash,
  groupByVersion,
} from './document-v3.js';
import { groupVersionKey } from './names.js';
import {
  allRefs,
  explainComponent,
  type Json,
  operations,
  v3SupportsParam,
  widgetDefinition,
} from './testing/document-checks.js';
import { fixtureSchemas } from './testing/fixture-schemas.js';

const builtins = createBuiltinResources();
const defs = [...builtins, widgetDefinition()];
const schemas = fixtureSchemas(builtins);
const documents = new Map(
  [...groupByVersion(defs)].map(([key, group]) => {
    const built = buildGroupVersionDocument(group, schemas);
    return [key, { ...built, document: JSON.parse(JSON.stringify(built.document)) as Json }];
  }),
);

function doc(key: string): Json {
  const d = documents.get(key)?.document;
  assert.ok(d, `no document ${key}`);
  return d;
}

describe('group-version documents', () => {
  it('cover every served group-version, one document each', () => {
    const want = new Set(defs.map((d) => groupVersionKey(d.group, d.version)));
    assert.deepEqual(new Set(documents.keys()), want);
    assert.ok(want.has('api/v1') && want.has('apis/apps/v1') && want.has('apis/example.com/v1'));
  });

  it('have the OpenAPI 3.0 header and the Kubernetes version', () => {
    const d = doc('apis/apps/v1');
    assert.equal(d.openapi, '3.0.0');
    assert.deepEqual(d.info, { title: 'Kubernetes', version: 'v1.33.0' });
    assert.deepEqual(Object.keys(d).slice(0, 4), ['openapi', 'info', 'paths', 'components']);
  });

  it('let kubectl find fieldValidation on the PATCH of every kind, Namespace included', () => {
    for (const def of defs) {
      const d = doc(groupVersionKey(def.group, def.version));
      const gvk = { group: def.group, version: def.version, kind: def.kind };
      assert.ok(v3SupportsParam(d, gvk, 'fieldValidation'), `${def.kind}: no fieldValidation`);
    }
    assert.ok(
      v3SupportsParam(
        doc('api/v1'),
        { group: '', version: 'v1', kind: 'Namespace' },
        'fieldValidation',
      ),
    );
  });

  it('give every PATCH dryRun, fieldManager, fieldValidation and force, the GVK and the action', () => {
    let patches = 0;
    for (const { document } of documents.values()) {
      for (const { op, method, path } of operations(document)) {
        assert.equal(typeof op.operationId, 'string', path);
        assert.ok(op['x-kubernetes-group-version-kind'], `${method} ${path}: no GVK`);
        if (method !== 'patch') continue;
        patches++;
        assert.equal(op['x-kubernetes-action'], 'patch');
        const names = (op.parameters as Json[]).map((p) => p.name);
        assert.deepEqual(names, ['dryRun', 'fieldManager', 'fieldValidation', 'force'], path);
        for (const p of op.parameters as Json[]) assert.equal(p.in, 'query');
      }
    }
    // item + status for every kind with status, + scale: far more than one per kind.
    assert.ok(patches >= defs.length, `${patches} patches`);
  });

  it('offer strategic merge patch for built-in kinds only', () => {
    const bodyTypes = (d: Json, path: string): string[] => {
      const op = (d.paths as Record<string, Json>)[path]?.patch as Json;
      return Object.keys((op.requestBody as { content: Json }).content).sort();
    };
    assert.deepEqual(
      bodyTypes(doc('apis/apps/v1'), '/apis/apps/v1/namespaces/{namespace}/deployments/{name}'),
      [
        'application/apply-patch+yaml',
        'application/json-patch+json',
        'application/merge-patch+json',
        'application/strategic-merge-patch+json',
      ],
    );
    assert.deepEqual(
      bodyTypes(
        doc('apis/example.com/v1'),
        '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}',
      ),
      [
        'application/apply-patch+yaml',
        'application/json-patch+json',
        'application/merge-patch+json',
      ],
    );
  });

  const cases: [string, string, string, string][] = [
    [
      'apis/apps/v1',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}',
      'patch',
      'patchAppsV1NamespacedDeployment',
    ],
    [
      'apis/apps/v1',
      '/apis/apps/v1/namespaces/{namespace}/deployments',
      'delete',
      'deleteAppsV1CollectionNamespacedDeployment',
    ],
    ['apis/apps/v1', '/apis/apps/v1/deployments', 'get', 'listAppsV1DeploymentForAllNamespaces'],
    [
      'apis/apps/v1',
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
      'patch',
      'patchAppsV1NamespacedDeploymentScale',
    ],
    [
      'apis/apps/v1',
      '/apis/apps/v1/namespaces/{namespace}/statefulsets/{name}/status',
      'get',
      'readAppsV1NamespacedStatefulSetStatus',
    ],
    ['api/v1', '/api/v1/namespaces/{name}/finalize', 'put', 'replaceCoreV1NamespaceFinalize'],
    ['api/v1', '/api/v1/namespaces', 'post', 'createCoreV1Namespace'],
    ['api/v1', '/api/v1/nodes/{name}', 'delete', 'deleteCoreV1Node'],
    [
      'apis/events.k8s.io/v1',
      '/apis/events.k8s.io/v1/namespaces/{namespace}/events',
      'get',
      'listEventsV1NamespacedEvent',
    ],
    [
      'apis/example.com/v1',
      '/apis/example.com/v1/namespaces/{namespace}/widgets/{name}',
      'patch',
      'patchExampleComV1NamespacedWidget',
    ],
  ];
  for (const [key, path, method, id] of cases) {
    it(`names ${method} ${path} ${id}`, () => {
      const item = (doc(key).paths as Record<string, Json>)[path];
      assert.ok(item, `no path ${path}`);
      assert.equal((item[method] as Json).operationId, id);
    });
  }

  it('tag operations by group and version', () => {
    const tags = (key: string) =>
      new Set(operations(doc(key)).flatMap(({ op }) => op.tags as string[]));
    assert.deepEqual(tags('api/v1'), new Set(['core_v1']));
    assert.deepEqual(tags('apis/example.com/v1'), new Set(['exampleCom_v1']));
  });

  it('publish /scale with the autoscaling/v1 Scale kind', () => {
    const op = (doc('apis/apps/v1').paths as Record<string, Json>)[
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'
    ]!.patch as Json;
    assert.deepEqual(op['x-kubernetes-group-version-kind'], {
      group: 'autoscaling',
      kind: 'Scale',
      version: 'v1',
    });
  });

  it('have unique operation ids in each document', () => {
    for (const [key, { document }] of documents) {
      const ids = operations(document).map(({ op }) => op.operationId);
      assert.equal(new Set(ids).size, ids.length, key);
    }
  });

  it('resolve every $ref inside the document (no dangling references)', () => {
    for (const [key, { document, missingRefs }] of documents) {
      const names = new Set(Object.keys((document.components as { schemas: Json }).schemas));
      for (const ref of allRefs(document)) {
        assert.ok(ref.startsWith(REF_PREFIX), ref);
        assert.ok(names.has(ref.slice(REF_PREFIX.length)), `${key}: dangling ${ref}`);
      }
      assert.deepEqual(missingRefs, []);
    }
  });

  it('carry only the closure of what the paths use', () => {
    for (const [key, { document }] of documents) {
      const schemas = (document.components as { schemas: Json }).schemas;
      const reachable = new Set<string>();
      const queue = allRefs(document.paths).map((r) => r.slice(REF_PREFIX.length));
      while (queue.length > 0) {
        const n = queue.pop()!;
        if (reachable.has(n)) continue;
        reachable.add(n);
        queue.push(...allRefs(schemas[n]).map((r) => r.slice(REF_PREFIX.length)));
      }
      assert.deepEqual(new Set(Object.keys(schemas)), reachable, key);
    }
  });

  it('include schemas of other groups the kinds refer to (apps → core PodSpec)', () => {
    const schemas = (doc('apis/apps/v1').components as { schemas: Json }).schemas;
    for (const n of [
      'io.k8s.api.core.v1.PodSpec',
      'io.k8s.api.core.v1.Container',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
    ]) {
      assert.ok(n in schemas, n);
    }
    assert.ok(!('io.k8s.api.core.v1.Pod' in schemas));
  });

  it('let explain find every kind by its GVK', () => {
    for (const def of defs) {
      const gvk = { group: def.group, version: def.version, kind: def.kind };
      assert.ok(explainComponent(doc(groupVersionKey(def.group, def.version)), gvk), def.kind);
    }
  });

  it('are deterministic: same input, same bytes', () => {
    const group = groupByVersion(builtins).get('api/v1')!;
    const a = JSON.stringify(buildGroupVersionDocument(group, schemas).document);
    const b = JSON.stringify(
      buildGroupVersionDocument([...group], fixtureSchemas(builtins)).document,
    );
    assert.equal(a, b);
  });

  it('still list paths (without response schemas) when the schema set lacks a kind', () => {
    const built = buildGroupVersionDocument(
      groupByVersion(builtins).get('apis/apps/v1')!,
      fixtureSchemas([]),
    );
    const d = JSON.parse(JSON.stringify(built.document)) as Json;
    assert.ok(
      v3SupportsParam(d, { group: 'apps', version: 'v1', kind: 'Deployment' }, 'fieldValidation'),
    );
    assert.deepEqual(built.missingRefs, []);
  });
});

describe('root document', () => {
  it('lists each key with its hashed URL, sorted', () => {
    const root = buildRootDocument(
      new Map([
        ['apis/apps/v1', 'AB'],
        ['api/v1', 'CD'],
      ]),
    );
    assert.deepEqual(
      JSON.stringify(root),
      JSON.stringify({
        paths: {
          'api/v1': { serverRelativeURL: '/openapi/v3/api/v1?hash=CD' },
          'apis/apps/v1': { serverRelativeURL: '/openapi/v3/apis/apps/v1?hash=AB' },
        },
      }),
    );
  });

  it('hashes as upstream: SHA-512, upper-case hex', () => {
    const h = contentHash(Buffer.from('{}'));
    assert.match(h, /^[0-9A-F]{128}$/);
    assert.equal(h.slice(0, 16), '27C74670ADB75075');
  });
});
