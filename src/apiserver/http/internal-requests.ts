/**
 * Requests made with the server's loopback credential: `fleetyard up`'s own controller
 * thread. The virtual clock counts the watch events written to them (`Clock.watchEvents`),
 * since that thread reports the same events as handled; other clients' watches are outside
 * the process and not counted.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';

const internal = new WeakSet<IncomingMessage>();

export function markInternal(req: IncomingMessage): void {
  internal.add(req);
}

export function isInternal(req: IncomingMessage): boolean {
  return internal.has(req);
}
