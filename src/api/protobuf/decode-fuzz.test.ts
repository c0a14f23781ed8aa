/** Robustness: whatever the bytes, decoding either succeeds or throws a 400 ProtobufDecodeError. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeKubernetesProtobuf, ProtobufDecodeError } from './decode.js';
import { envelope } from './testing/wire-writer.js';

describe('decodeKubernetesProtobuf: arbitrary input', () => {
  const fixture = readFileSync(
    new URL('./testdata/debug-copy-rich-pod.kubectl-1.33.pb', import.meta.url),
  );

  function onlyDecodeErrors(body: Buffer): void {
    try {
      decodeKubernetesProtobuf(body);
    } catch (e) {
      assert.ok(e instanceof ProtobufDecodeError, String(e));
    }
  }

  it('fails only with ProtobufDecodeError on random objects of each kind', () => {
    const kinds = fc.constantFrom(
      ['v1', 'Pod'],
      ['apps/v1', 'Deployment'],
      ['v1', 'Service'],
      ['events.k8s.io/v1', 'Event'],
      ['apps/v1', 'ControllerRevision'],
      ['v1', 'ResourceQuota'],
      ['discovery.k8s.io/v1', 'EndpointSlice'],
      ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
    );
    fc.assert(
      fc.property(kinds, fc.uint8Array({ maxLength: 200 }), ([apiVersion, kind], raw) => {
        onlyDecodeErrors(envelope(apiVersion ?? '', kind ?? '', Buffer.from(raw)));
      }),
      { numRuns: 500 },
    );
  });

  it('fails only with ProtobufDecodeError on corrupted captured bodies', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.nat(),
        (flips, cut) => {
          const body = Buffer.from(fixture);
          for (const [at, value] of flips) body[4 + (at % (body.length - 4))] = value;
          onlyDecodeErrors(body);
          onlyDecodeErrors(body.subarray(0, cut % body.length));
        },
      ),
      { numRuns: 500 },
    );
  });
});
