/**
 * Object-name validation functions (upstream `ValidateNameFunc`s): each takes the name and
 * whether it is a `generateName` prefix (which may end in `-`), and returns upstream's messages.
 *
 * @module
 */
import type { NameValidation } from '../resource.js';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from './dns.js';

/** A name check: `prefix` is true for a `generateName`, which gets random characters appended. */
export type NameFn = (name: string, prefix: boolean) => string[];

/**
 * Upstream `maskTrailingDash`. Kept byte-for-byte, quirk included: it drops the last *two*
 * characters before appending `a`, so `ab-` is checked as `aa`. A lone `-` becomes `a`.
 */
export function maskTrailingDash(name: string): string {
  if (!name.endsWith('-')) return name;
  return `${name.slice(0, Math.max(0, name.length - 2))}a`;
}

/** Upstream `NameIsDNSSubdomain`. */
export const nameIsDNSSubdomain: NameFn = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Upstream `NameIsDNSLabel` (namespaces, StatefulSets). */
export const nameIsDNSLabel: NameFn = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Upstream `NameIsDNS1035Label` (Services). */
export const nameIsDNS1035Label: NameFn = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

const NAME_MAY_NOT_BE = ['.', '..'];
const NAME_MAY_NOT_CONTAIN = ['/', '%'];

/** Upstream `path.IsValidPathSegmentName`: the name can be used as one URL path segment. */
export function isValidPathSegmentName(name: string): string[] {
  for (const illegal of NAME_MAY_NOT_BE) {
    if (name === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(name);
}

/** Upstream `path.IsValidPathSegmentPrefix`: as above, without the whole-name checks. */
export function isValidPathSegmentPrefix(name: string): string[] {
  return NAME_MAY_NOT_CONTAIN.filter((s) => name.includes(s)).map((s) => `may not contain '${s}'`);
}

/** Upstream `path.ValidatePathSegmentName`. */
export const validatePathSegmentName: NameFn = (name, prefix) =>
  prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);

/** The name function for a {@link NameValidation} mode. */
export function nameFnFor(mode: NameValidation): NameFn {
  switch (mode) {
    case 'dns-label':
      return nameIsDNSLabel;
    case 'path-segment':
      return validatePathSegmentName;
    default:
      return nameIsDNSSubdomain;
  }
}
