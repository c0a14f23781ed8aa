/**
 * A protobuf body sent to a custom resource. Upstream's custom resource handler negotiates
 * protobuf (for PartialObjectMetadata and Tables), but decoding one into an
 * `*unstructured.Unstructured` fails, and `transformDecodeError` answers 400
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: object *unstructured.Unstructured does
 * not implement the protobuf marshalling interface …`, the kind and version taken from the
 * body's envelope (the request's when the envelope leaves them empty).
 *
 * @module
 */
import { badRequest, type StatusError } from '../../api/errors.js';
import { parseEnvelope } from '../../api/protobuf/envelope.js';
import type { ResourceDefinition } from '../../api/resource.js';

const NOT_MARSHALABLE =
  'object *unstructured.Unstructured does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message';

/** The 400 for a protobuf body to `def`, a custom resource. */
export function customResourceProtobufError(def: ResourceDefinition, body: Buffer): StatusError {
  let kind = def.kind;
  let version = def.version;
  try {
    const envelope = parseEnvelope(body);
    if (envelope.kind !== '') kind = envelope.kind;
    const v = envelope.apiVersion.slice(envelope.apiVersion.indexOf('/') + 1);
    if (v !== '') version = v;
  } catch {
    // Not even an envelope: the request's kind and version, as upstream's defaults.
  }
  return badRequest(
    `${kind} in version "${version}" cannot be handled as a ${def.kind}: ${NOT_MARSHALABLE}`,
  );
}
