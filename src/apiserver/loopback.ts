/**
 * Whether an address only accepts connections from this machine. Binding anything else
 * without TLS and a token would expose the API (and its secrets) to the network.
 *
 * @module
 */
import { ipFamily } from '../util/ip.js';

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (ipFamily(h) === 4) return h.startsWith('127.');
  if (ipFamily(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}
