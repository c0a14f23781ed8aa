/** The documents built over the real generated built-in schema set. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { createBuiltinResources } from '../../api/kinds/index.js';
import { loadBuiltinSchemas } from '../../api/schema/builtin/index.js';
import { REF_PREFIX } from '../../api/schema/types.js';
import { ResourceRegistry } from '../registry.js';
import { createOpenApiService, type OpenApiSnapshot } from './service.js';
import {
  allRefs,
  explainComponent,
  type Json,
  v3SupportsParam,
  widgetDefinition,
} from './testing/document-checks.js';

describe('documents over the generated built-in schemas', () => {
  const defs = [...createBuiltinResources(), widgetDefinition()];
  let snap: OpenApiSnapshot;
  const docs = new Map<string, Json>();

  before(async () => {
    const service = createOpenApiService({
      registry: new ResourceRegistry(defs),
      loadBuiltinSchemas,
    });
    snap = await service.snapshot();
    service.close();
    for (const [k, d] of snap.groupVersions) docs.set(k, JSON.parse(d.json.toString()) as Json);
  });

  it('have no dangling $ref anywhere', () => {
    assert.deepEqual([...snap.missingRefs], []);
    for (const [key, doc] of docs) {
      const names = new Set(Object.keys((doc.components as { schemas: Json }).schemas));
      for (const ref of allRefs(doc))
        assert.ok(names.has(ref.slice(REF_PREFIX.length)), `${key}: ${ref}`);
    }
  });

  it('let explain and the field-validation probe find every served kind', () => {
    for (const def of defs) {
      const doc = docs.get(
        def.group === '' ? `api/${def.version}` : `apis/${def.group}/${def.version}`,
      )!;
      const gvk = { group: def.group, version: def.version, kind: def.kind };
      const schema = explainComponent(doc, gvk);
      assert.ok(schema?.properties?.metadata, `${def.kind}: no component with properties`);
      assert.ok(v3SupportsParam(doc, gvk, 'fieldValidation'), def.kind);
    }
  });

  it('carry the strategic-merge extensions kubectl computes patches from', () => {
    const schemas = (docs.get('apis/apps/v1')!.components as { schemas: Record<string, Json> })
      .schemas;
    const podSpec = schemas['io.k8s.api.core.v1.PodSpec'] as { properties: Record<string, Json> };
    assert.equal(podSpec.properties.containers?.['x-kubernetes-patch-merge-key'], 'name');
  });

  // 2.1 MiB with every kind of a default v1.33 server (issue 17); upstream's are about 4 MiB.
  it('stay small: every document together under 3 MiB', () => {
    const bytes = [...snap.groupVersions.values()].reduce((n, d) => n + d.json.length, 0);
    assert.ok(bytes < 3 * 2 ** 20, `${bytes} bytes`);
  });
});
