/**
 * Every built-in kind the server serves decodes from protobuf. kubectl 1.32+ sends protobuf
 * from its typed clients (`kubectl create quota` and every other generator), so a served
 * kind without a table answers 400 `no protobuf decoding for v1, Kind=ResourceQuota`: that
 * is what happened to ResourceQuota, LimitRange and EndpointSlice, which were served after
 * the tables were written and nothing tied the two lists together (issue 14, item 3).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBuiltinResources } from '../kinds/index.js';
import { decodeKubernetesProtobuf } from './decode.js';
import { ROOT_MESSAGES, rootMessage } from './registry.js';
import { envelope, fBytes } from './testing/wire-writer.js';

interface Kind {
  readonly apiVersion: string;
  readonly kind: string;
}

const builtins: readonly Kind[] = createBuiltinResources().map((d) => ({
  apiVersion: d.group === '' ? d.version : `${d.group}/${d.version}`,
  kind: d.kind,
}));

/**
 * Served above this layer: apiextensions adds its definition through the server's extensions
 * (`src/apiserver/extensions.ts`). Custom resources themselves have no protobuf form: upstream refuses such bodies
 * too (400, its unstructured objects cannot be decoded from protobuf).
 */
const CRD: Kind = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };

/**
 * Bodies of subresources whose kind is not the resource's own (`handlers/discovery.ts`
 * lists them): `pods/binding`, `pods/eviction`, `<workload>/scale`. DeleteOptions is
 * accepted under any group version and is not in the table.
 */
const SUBRESOURCE_BODIES: readonly Kind[] = [
  { apiVersion: 'v1', kind: 'Binding' },
  { apiVersion: 'policy/v1', kind: 'Eviction' },
  { apiVersion: 'autoscaling/v1', kind: 'Scale' },
  { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' },
];

const name = (k: Kind): string => `${k.apiVersion}, Kind=${k.kind}`;

function decodes(k: Kind): boolean {
  try {
    rootMessage(k.apiVersion, k.kind);
    return true;
  } catch {
    return false;
  }
}

describe('protobuf: every served built-in kind has a schema', () => {
  it('has a root message for every built-in resource, the CRD, and subresource bodies', () => {
    const missing = [...builtins, CRD, ...SUBRESOURCE_BODIES].filter((k) => !decodes(k));
    assert.deepEqual(missing.map(name), []);
  });

  it('has no root message for a kind the server does not serve', () => {
    const served = new Set([...builtins, CRD, ...SUBRESOURCE_BODIES].map(name));
    const roots = Object.entries(ROOT_MESSAGES).flatMap(([apiVersion, kinds]) =>
      Object.keys(kinds).map((kind) => name({ apiVersion, kind })),
    );
    assert.deepEqual(
      roots.filter((r) => !served.has(r)),
      [],
    );
  });

  // A body with only metadata.name (ObjectMeta is field 1 of every top-level object).
  for (const k of [...builtins, CRD]) {
    it(`decodes a ${name(k)} body`, () => {
      const d = decodeKubernetesProtobuf(envelope(k.apiVersion, k.kind, fBytes(1, fBytes(1, 'x'))));
      assert.equal(d.kind, k.kind);
      assert.deepEqual(d.object.metadata, { name: 'x', creationTimestamp: null });
    });
  }
});
