/**
 * The envelope of a Kubernetes protobuf body (`k8s.io/apimachinery/pkg/runtime/serializer/
 * protobuf`): the 4 magic bytes `k8s\0`, then a `runtime.Unknown` message whose `typeMeta`
 * names the object and whose `raw` holds the object's own message.
 *
 * @module
 */
import { ProtobufDecodeError } from './errors.js';
import { PROTOBUF_MAGIC } from './special.js';
import { isZeroField, readFields, WIRE_BYTES } from './wire.js';

/** The parts of a `runtime.Unknown` the decoder uses. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  /** The object's message, without `kind`/`apiVersion` (protobuf messages carry no TypeMeta). */
  readonly raw: Buffer;
  /** `contentEncoding`: empty unless the raw bytes were compressed (unsupported). */
  readonly contentEncoding: string;
  /** `contentType` of `raw`; informational, as upstream ignores it on decode. */
  readonly contentType: string;
}

/** Whether a body starts with the Kubernetes protobuf magic `k8s\0`. */
export function hasProtobufMagic(body: Buffer): boolean {
  return body.length >= PROTOBUF_MAGIC.length && body.subarray(0, 4).equals(PROTOBUF_MAGIC);
}

/** The length-delimited fields 1..4 of a small message; other fields must be zero. */
function stringFields(what: string, payload: Buffer, count: number): Map<number, Buffer> {
  const out = new Map<number, Buffer>();
  for (const f of readFields(payload)) {
    if (f.no >= 1 && f.no <= count && f.wireType === WIRE_BYTES) out.set(f.no, f.bytes);
    else if (!isZeroField(f)) {
      throw new ProtobufDecodeError(`unexpected field ${f.no} in ${what}`);
    }
  }
  return out;
}

/**
 * Splits a body into its envelope: `runtime.Unknown` is `{typeMeta TypeMeta = 1, raw bytes = 2,
 * contentEncoding string = 3, contentType string = 4}`, `TypeMeta` is `{apiVersion = 1,
 * kind = 2}`.
 */
export function parseEnvelope(body: Buffer): Envelope {
  if (!hasProtobufMagic(body)) {
    throw new ProtobufDecodeError(
      'the body does not start with the Kubernetes protobuf prefix "k8s\\x00"',
    );
  }
  const unknown = stringFields('runtime.Unknown', body.subarray(4), 4);
  const typeMeta = stringFields('runtime.TypeMeta', unknown.get(1) ?? Buffer.alloc(0), 2);
  const envelope: Envelope = {
    apiVersion: (typeMeta.get(1) ?? Buffer.alloc(0)).toString('utf8'),
    kind: (typeMeta.get(2) ?? Buffer.alloc(0)).toString('utf8'),
    raw: unknown.get(2) ?? Buffer.alloc(0),
    contentEncoding: (unknown.get(3) ?? Buffer.alloc(0)).toString('utf8'),
    contentType: (unknown.get(4) ?? Buffer.alloc(0)).toString('utf8'),
  };
  if (envelope.contentEncoding !== '') {
    throw new ProtobufDecodeError(
      `content encoding "${envelope.contentEncoding}" is not supported`,
    );
  }
  return envelope;
}
