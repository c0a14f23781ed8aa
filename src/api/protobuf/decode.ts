/**
 * Decoding Kubernetes protobuf request bodies (`Content-Type: application/vnd.kubernetes.protobuf`,
 * what client-go's typed clients send since kubectl 1.32) into the JSON object form the rest
 * of the server works with: exactly the object a JSON client would have sent.
 *
 * @module
 */
import { parseEnvelope } from './envelope.js';
import { ProtobufDecodeError } from './errors.js';
import { decodeFields } from './message.js';
import { rootMessage } from './registry.js';

export { hasProtobufMagic } from './envelope.js';
export { ProtobufDecodeError } from './errors.js';

/** The media type of Kubernetes protobuf bodies. */
export const KUBERNETES_PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** A decoded body: the object's group version and kind, and the object as JSON. */
export interface DecodedProtobufObject {
  readonly apiVersion: string;
  readonly kind: string;
  /** The object with `kind` and `apiVersion` first, as Go's JSON writes it. */
  readonly object: Record<string, unknown>;
}

/** How deep `RawExtension`s may nest further protobuf objects. */
const MAX_NESTING = 8;

function decodeAt(body: Buffer, path: string, depth: number): DecodedProtobufObject {
  if (depth > MAX_NESTING) throw new ProtobufDecodeError(`objects nest too deep at ${path}`);
  const envelope = parseEnvelope(body);
  const root = rootMessage(envelope.apiVersion, envelope.kind);
  const nested = (raw: Buffer, at: string): Record<string, unknown> =>
    decodeAt(raw, at, depth + 1).object;
  const fields = decodeFields(root, envelope.raw, path, { nested, depth: 0 });
  const object = { kind: envelope.kind, apiVersion: envelope.apiVersion, ...fields };
  return { apiVersion: envelope.apiVersion, kind: envelope.kind, object };
}

/**
 * Decodes a Kubernetes protobuf body (`k8s\0` + `runtime.Unknown`) of any kind the server
 * serves, plus `autoscaling/v1` `Scale`, `policy/v1` `Eviction` and `DeleteOptions`.
 *
 * @throws {ProtobufDecodeError} (400 BadRequest) for a malformed body, a kind without a
 *   schema here, or a field this server does not know that carries a non-zero value.
 */
export function decodeKubernetesProtobuf(body: Buffer): DecodedProtobufObject {
  return decodeAt(body, '', 0);
}
