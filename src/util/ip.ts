/**
 * IP address classification for the startup path. `node:net`'s `isIP`/`isIPv6` compile a
 * very large IPv6 regular expression on first use (~8 ms here, measured in `fleetyard up`'s
 * startup profile); the URL parser (C++) validates IPv6 for free.
 *
 * @module
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** 4 or 6 for an IP address (no brackets, no zone), 0 otherwise. */
export function ipFamily(text: string): 0 | 4 | 6 {
  if (IPV4.test(text)) return 4;
  if (!text.includes(':') || /[^0-9a-fA-F:.]/.test(text)) return 0;
  try {
    new URL(`http://[${text}]/`);
    return 6;
  } catch {
    return 0;
  }
}

/** The canonical (RFC 5952) text of an IPv6 address, so `::1` and `0:0::1` compare equal. */
export function canonicalIPv6(text: string): string {
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}
