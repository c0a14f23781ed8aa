/**
 * How a storage failure reaches the client. Upstream, etcd's NOSPACE alarm fails a write with
 * the gRPC error "etcdserver: mvcc: database space exceeded", which the registry does not
 * classify: kube-apiserver answers 500 with no `reason` and that text as the message, and
 * kubectl prints `Error from server: <message>`. A full, read-only or failing disk here is
 * answered the same way, with the storage's own message ("storage: database space exceeded
 * (…); reads are served, writes resume once space is freed").
 *
 * @module
 */
import { type StatusError, unclassifiedError } from '../../api/errors.js';
import { UnwritableError } from '../../storage/backend.js';

/** The Status for a write the disk refused, or undefined for any other error. */
export function storageStatus(e: unknown): StatusError | undefined {
  return e instanceof UnwritableError ? unclassifiedError(e.message) : undefined;
}
