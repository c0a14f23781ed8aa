/**
 * Whether an address only accepts connections from this machine. Binding anything else
 * without TLS and a token would expose the API (and its secrets) to the network.
 *
 * @module
 */
import { isIP } from 'node:net';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}
