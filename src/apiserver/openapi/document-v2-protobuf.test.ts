import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createBuiltinResources } from '../../api/kinds/index.js';
import { buildV2Document, gvkYaml, v2DocumentJson } from './document-v2.js';
import { encodeV2Protobuf, GVK_EXTENSION, PB } from './document-v2-protobuf.js';
import { encodeVarint, ProtoWriter } from './protobuf-writer.js';
import { type Gvk, type Json, widgetDefinition } from './testing/document-checks.js';
import { all, decodeFields, flag, one, text } from './testing/protobuf-reader.js';

const defs = [...createBuiltinResources(), widgetDefinition()];
const model = buildV2Document(defs);
const bytes = encodeV2Protobuf(model);

/** Parses the `key: value` lines Go's yaml encoder writes for a flat string map. */
function parseYamlMap(yaml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of yaml.split('\n').filter((l) => l !== '')) {
    const [k, v = ''] = line.split(/: (.*)/s);
    out[k!] = v.startsWith('"') ? (JSON.parse(v) as string) : v;
  }
  return out;
}

interface DecodedPatch {
  path: string;
  operationId: string;
  extensions: Map<string, string>;
  query: { name: string; in: string; type: string }[];
}

function decodePaths(doc: Buffer): DecodedPatch[] {
  const paths = one(doc, PB.Document.paths);
  return all(paths!, PB.Paths.path).map((named) => {
    const item = one(named, PB.NamedPathItem.value);
    const op = one(item, PB.PathItem.patch);
    const extensions = new Map(
      all(op!, PB.Operation.vendorExtension).map((e) => [
        text(e, PB.NamedAny.name),
        text(one(e, PB.NamedAny.value), PB.Any.yaml),
      ]),
    );
    const query = all(op!, PB.Operation.parameters).map((pi) => {
      const nonBody = one(one(pi, PB.ParametersItem.parameter), PB.Parameter.nonBodyParameter);
      const q = one(nonBody, PB.NonBodyParameter.query);
      assert.ok(q, 'not a query parameter');
      assert.ok(flag(q, PB.QueryParameter.uniqueItems));
      return {
        name: text(q, PB.QueryParameter.name),
        in: text(q, PB.QueryParameter.in),
        type: text(q, PB.QueryParameter.type),
      };
    });
    return {
      path: text(named, PB.NamedPathItem.name),
      operationId: text(op, PB.Operation.operationId),
      extensions,
      query,
    };
  });
}

/** kubectl 1.27/1.28's `supportsQueryParam` over the decoded document. */
function v2Supports(paths: DecodedPatch[], gvk: Gvk, param: string): boolean {
  for (const p of paths) {
    const yaml = p.extensions.get(GVK_EXTENSION);
    if (!yaml) continue;
    const v = parseYamlMap(yaml);
    if (v.group !== gvk.group || v.kind !== gvk.kind || v.version !== gvk.version) continue;
    return p.query.some((q) => q.name === param);
  }
  return false;
}

describe('OpenAPI v2 protobuf document', () => {
  const decoded = decodePaths(bytes);

  it('has swagger 2.0 and the Kubernetes info', () => {
    assert.equal(text(bytes, PB.Document.swagger), '2.0');
    const info = one(bytes, PB.Document.info);
    assert.equal(text(info, PB.Info.title), 'Kubernetes');
    assert.equal(text(info, PB.Info.version), 'v1.33.0');
  });

  it('has one item path with a PATCH per resource, sorted', () => {
    assert.equal(decoded.length, defs.length);
    const paths = decoded.map((d) => d.path);
    assert.deepEqual(paths, [...paths].sort());
    assert.ok(paths.includes('/apis/apps/v1/namespaces/{namespace}/deployments/{name}'));
    assert.ok(paths.includes('/api/v1/namespaces/{name}'));
    const deployment = decoded.find((d) => d.path.endsWith('/deployments/{name}'))!;
    assert.equal(deployment.operationId, 'patchAppsV1NamespacedDeployment');
    assert.deepEqual(
      deployment.query.map((q) => q.name),
      ['dryRun', 'fieldManager', 'fieldValidation', 'force'],
    );
    assert.ok(deployment.query.every((q) => q.in === 'query'));
    assert.equal(deployment.query.find((q) => q.name === 'force')?.type, 'boolean');
  });

  it('passes kubectl 1.27/1.28 field-validation probe for every kind, Namespace included', () => {
    for (const d of defs) {
      assert.ok(
        v2Supports(
          decoded,
          { group: d.group, version: d.version, kind: d.kind },
          'fieldValidation',
        ),
        d.kind,
      );
    }
    assert.ok(
      !v2Supports(
        decoded,
        { group: 'apps', version: 'v1', kind: 'Frobnicator' },
        'fieldValidation',
      ),
    );
  });

  it('writes the GVK extension as the YAML Go writes', () => {
    const yaml = decoded
      .find((d) => d.path === '/api/v1/namespaces/{name}')!
      .extensions.get(GVK_EXTENSION);
    assert.equal(yaml, 'group: ""\nkind: Namespace\nversion: v1\n');
    assert.equal(
      gvkYaml({ group: 'apps', kind: 'Deployment', version: 'v1' }),
      'group: apps\nkind: Deployment\nversion: v1\n',
    );
    assert.equal(
      gvkYaml({ group: 'on', kind: 'Yes', version: 'v1' }),
      'group: "on"\nkind: "Yes"\nversion: v1\n',
    );
  });

  it('has the same paths and operations as the JSON form', () => {
    const json = JSON.parse(JSON.stringify(v2DocumentJson(model))) as {
      swagger: string;
      paths: Record<string, { patch: Json }>;
    };
    assert.equal(json.swagger, '2.0');
    assert.deepEqual(
      Object.keys(json.paths),
      decoded.map((d) => d.path),
    );
    for (const d of decoded) {
      const op = json.paths[d.path]!.patch;
      assert.equal(op.operationId, d.operationId);
      assert.deepEqual(
        parseYamlMap(d.extensions.get(GVK_EXTENSION)!),
        op['x-kubernetes-group-version-kind'],
      );
    }
  });
});

describe('ProtoWriter', () => {
  it('round-trips varints through an independent reader (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 }), fc.string(), (n, s) => {
        const buf = new ProtoWriter()
          .bytes(1, encodeVarint(n))
          .string(2, s)
          .bool(3, n % 2 === 1)
          .finish();
        const fields = decodeFields(buf);
        const [v] = decodeFields(Buffer.concat([Buffer.from([8]), fields[0]!.bytes]));
        assert.equal(v!.varint, n);
        assert.equal(text(buf, 2), s);
        assert.equal(flag(buf, 3), n % 2 === 1);
      }),
    );
  });

  it('encodes known bytes', () => {
    assert.deepEqual([...encodeVarint(300)], [0xac, 0x02]);
    assert.deepEqual([...new ProtoWriter().string(1, 'hi').finish()], [0x0a, 0x02, 0x68, 0x69]);
    assert.deepEqual(
      [...new ProtoWriter().message(2, (w) => w.bool(1, true)).finish()],
      [0x12, 0x02, 0x08, 0x01],
    );
    assert.equal(new ProtoWriter().string(1, '').bool(2, false).finish().length, 0);
    assert.throws(() => encodeVarint(-1), RangeError);
  });
});
