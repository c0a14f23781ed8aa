/**
 * Protobuf schema tables: certificates.k8s.io/v1 CertificateSigningRequest (kubectl 1.33's
 * `kubectl certificate approve|deny` PUTs the request to `/approval` as protobuf).
 *
 * Numbers from k8s.io/api v0.33 `certificates/v1/generated.proto`, rows in Go struct order.
 * The messages are filed under the `core` table group only because `TableGroup` in
 * `schema.ts` has no `certificates` yet (the name is internal, never on the wire); they become
 * `certificates.*` once it has. `spec.extra` (a map of `ExtraValue` messages) is not decoded:
 * the server always clears it on create, so no request a client read back carries it.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for certificates.k8s.io/v1 messages. */
export const certificatesTables: MessageTables = {
  /** k8s.io.api.certificates.v1.CertificateSigningRequest */
  'core.CertificateSigningRequest': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.CertificateSigningRequestSpec'],
    [3, 'status', 'core.CertificateSigningRequestStatus', 'o'],
  ],
  /** k8s.io.api.certificates.v1.CertificateSigningRequestSpec */
  'core.CertificateSigningRequestSpec': [
    [1, 'request', 'bytes'],
    [7, 'signerName', 'string'],
    [8, 'expirationSeconds', 'int32', 'op'],
    [5, 'usages', 'string', 'or'],
    [2, 'username', 'string', 'o'],
    [3, 'uid', 'string', 'o'],
    [4, 'groups', 'string', 'or'],
  ],
  /** k8s.io.api.certificates.v1.CertificateSigningRequestStatus */
  'core.CertificateSigningRequestStatus': [
    [1, 'conditions', 'core.CertificateSigningRequestCondition', 'or'],
    [2, 'certificate', 'bytes', 'o'],
  ],
  /** k8s.io.api.certificates.v1.CertificateSigningRequestCondition */
  'core.CertificateSigningRequestCondition': [
    [1, 'type', 'string'],
    [6, 'status', 'string'],
    [2, 'reason', 'string', 'o'],
    [3, 'message', 'string', 'o'],
    [4, 'lastUpdateTime', 'Time', 'o'],
    [5, 'lastTransitionTime', 'Time', 'o'],
  ],
};
