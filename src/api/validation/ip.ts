/**
 * IP and CIDR checks as upstream's `IsValidIP` / `IsValidCIDR`, which parse "sloppily" (Go's
 * pre-1.17 `net.ParseIP`: IPv4 octets may carry leading zeros and are read as decimal).
 *
 * @module
 */
import { ipFamily } from '../../util/ip.js';
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';

/** The address family of a sloppily parsed IP, or undefined when it is not an IP. */
export function parseIPSloppy(value: string): 4 | 6 | undefined {
  if (isIPv4Sloppy(value)) return 4;
  // Zones (`fe80::1%eth0`) are not IPs to Go's parser.
  if (ipFamily(value) === 6) return 6;
  return undefined;
}

function isIPv4Sloppy(value: string): boolean {
  const parts = value.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number.parseInt(p, 10) <= 255);
}

/** Upstream `IsValidIP`. */
export function isValidIP(fieldPath: FieldPath, value: string): FieldError[] {
  if (parseIPSloppy(value) !== undefined) return [];
  return [
    fieldErrors.invalid(
      fieldPath,
      value,
      'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ),
  ];
}

/** The family and prefix length of a sloppily parsed CIDR, or undefined. */
export function parseCIDRSloppy(value: string): { family: 4 | 6; bits: number } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const family = parseIPSloppy(value.slice(0, slash));
  const mask = value.slice(slash + 1);
  if (family === undefined || !/^[0-9]+$/.test(mask)) return undefined;
  const bits = Number.parseInt(mask, 10);
  return bits <= (family === 4 ? 32 : 128) ? { family, bits } : undefined;
}

/** Upstream `IsValidCIDR`. */
export function isValidCIDR(fieldPath: FieldPath, value: string): FieldError[] {
  if (parseCIDRSloppy(value) !== undefined) return [];
  return [
    fieldErrors.invalid(
      fieldPath,
      value,
      'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
    ),
  ];
}

/** The address as a number (IPv4 in 32 bits, IPv6 in 128), or undefined when it is not an IP. */
export function ipToBigInt(value: string): { family: 4 | 6; n: bigint } | undefined {
  const family = parseIPSloppy(value);
  if (family === 4) {
    return {
      family,
      n: value.split('.').reduce((acc, p) => (acc << 8n) | BigInt(Number.parseInt(p, 10)), 0n),
    };
  }
  if (family !== 6) return undefined;
  let text = value;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    // An embedded IPv4 tail counts as the last two groups.
    const v4 = ipToBigInt(tail);
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(v4.n >> 16n).toString(16)}:${(v4.n & 0xffffn).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const restGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros = new Array<string>(8 - headGroups.length - restGroups.length).fill('0');
  const groups = rest === undefined ? headGroups : [...headGroups, ...zeros, ...restGroups];
  return {
    family,
    n: groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n),
  };
}

/** Whether the address `ip` lies inside `cidr` (both parsed sloppily, same family). */
export function cidrContains(cidr: string, ip: string): boolean {
  const parsed = parseCIDRSloppy(cidr);
  const net = ipToBigInt(cidr.slice(0, cidr.indexOf('/')));
  const addr = ipToBigInt(ip);
  if (parsed === undefined || net === undefined || addr === undefined || net.family !== addr.family)
    return false;
  const width = parsed.family === 4 ? 32n : 128n;
  const shift = width - BigInt(parsed.bits);
  return net.n >> shift === addr.n >> shift;
}
