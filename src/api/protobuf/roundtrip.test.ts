/**
 * Round-trip properties over every top-level kind: a random object in Go's JSON form, encoded
 * the way Go's marshalers encode it (`testing/schema-encoder.ts`), decodes to the same object,
 * in the same key order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeKubernetesProtobuf } from './decode.js';
import { ROOT_MESSAGES } from './registry.js';
import type { MessageName } from './schema.js';
import { Rng, randomMessage } from './testing/random-object.js';
import { encodeMessage } from './testing/schema-encoder.js';
import { envelope } from './testing/wire-writer.js';

const ROOTS: readonly { apiVersion: string; kind: string; message: MessageName }[] = [
  ...Object.entries(ROOT_MESSAGES).flatMap(([apiVersion, kinds]) =>
    Object.entries(kinds).map(([kind, message]) => ({ apiVersion, kind, message })),
  ),
  { apiVersion: 'apps/v1', kind: 'DeleteOptions', message: 'meta.DeleteOptions' },
];

describe('protobuf decoding round-trips Go-encoded objects', () => {
  for (const root of ROOTS) {
    it(`${root.apiVersion} ${root.kind}`, () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const fields = randomMessage(root.message, new Rng(seed));
          const body = envelope(root.apiVersion, root.kind, encodeMessage(root.message, fields));
          const want = { kind: root.kind, apiVersion: root.apiVersion, ...fields };
          const got = decodeKubernetesProtobuf(body).object;
          assert.deepEqual(got, want);
          assert.equal(JSON.stringify(got), JSON.stringify(want));
        }),
        { numRuns: 60 },
      );
    });
  }

  // A schema sits five messages deep in a CRD, where random objects are thin: this puts a
  // random one (its unions, doubles and embedded JSON) at the top of a version.
  it('apiextensions.k8s.io/v1 CustomResourceDefinition with a deep schema', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rng = new Rng(seed);
        const crd = randomMessage('apiextensions.CustomResourceDefinition', rng);
        const schema = randomMessage('apiextensions.JSONSchemaProps', rng);
        const version = {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
        };
        const fields = { ...crd, spec: { ...(crd.spec as object), versions: [version] } };
        const message = 'apiextensions.CustomResourceDefinition';
        const apiVersion = 'apiextensions.k8s.io/v1';
        const kind = 'CustomResourceDefinition';
        const body = envelope(apiVersion, kind, encodeMessage(message, fields));
        const want = { kind, apiVersion, ...fields };
        assert.equal(JSON.stringify(decodeKubernetesProtobuf(body).object), JSON.stringify(want));
      }),
      { numRuns: 100 },
    );
  });
});
