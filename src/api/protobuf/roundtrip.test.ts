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
});
