/**
 * Media-type parsing for `Accept` and `Content-Type`, and the server's choices:
 * JSON for everything (also when protobuf is preferred: kubectl 1.33's typed clients send
 * `application/vnd.kubernetes.protobuf,application/json`), aggregated discovery only when its
 * exact media type is asked for (kubectl 1.27 breaks on a v2 body it did not ask for).
 *
 * @module
 */
import { notAcceptable } from '../../api/errors.js';

export interface MediaType {
  readonly type: string;
  readonly subtype: string;
  readonly params: Readonly<Record<string, string>>;
}

/** Parses one media type such as `application/json;as=Table;v=v1;g=meta.k8s.io`. */
export function parseMediaType(text: string): MediaType | undefined {
  const [essence = '', ...paramParts] = text.split(';');
  const [type, subtype] = essence.trim().toLowerCase().split('/');
  if (!type || !subtype) return undefined;
  const params: Record<string, string> = {};
  for (const p of paramParts) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    const k = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1);
    params[k] = v;
  }
  return { type, subtype, params };
}

/** The entries of an `Accept` header, in the client's order (q-values break ties only). */
export function parseAccept(header: string | undefined): MediaType[] {
  if (header === undefined || header.trim() === '') return [];
  const entries = header
    .split(',')
    .map((t, i) => ({ m: parseMediaType(t), i }))
    .filter((e): e is { m: MediaType; i: number } => e.m !== undefined);
  const q = (m: MediaType): number => {
    const v = Number(m.params.q ?? '1');
    return Number.isFinite(v) ? v : 1;
  };
  return entries.sort((a, b) => q(b.m) - q(a.m) || a.i - b.i).map((e) => e.m);
}

function isJsonLike(m: MediaType): boolean {
  if (m.type === '*' && m.subtype === '*') return true;
  if (m.type !== 'application') return false;
  return m.subtype === 'json' || m.subtype === '*';
}

/** A plain JSON entry: no `as=` conversion asked for. */
function isPlainJson(m: MediaType): boolean {
  return isJsonLike(m) && m.params.as === undefined;
}

export type DiscoveryFormat = 'legacy' | 'v2' | 'v2beta1';

/** Which discovery document to serve for `/api` and `/apis`. */
export function discoveryFormat(accept: readonly MediaType[]): DiscoveryFormat {
  for (const m of accept) {
    if (m.params.as === 'APIGroupDiscoveryList' && m.params.g === 'apidiscovery.k8s.io') {
      if (m.params.v === 'v2') return 'v2';
      if (m.params.v === 'v2beta1') return 'v2beta1';
      continue;
    }
    if (isPlainJson(m)) return 'legacy';
  }
  return 'legacy';
}

export const DISCOVERY_CONTENT_TYPE: Record<Exclude<DiscoveryFormat, 'legacy'>, string> = {
  v2: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  v2beta1: 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList',
};

/**
 * Checks that the client accepts JSON at all. An absent header, a wildcard, or JSON anywhere
 * in the list (protobuf first included) is fine; only a list without any of them gets 406.
 */
export function requireJson(accept: readonly MediaType[]): void {
  if (accept.length === 0) return;
  if (accept.some((m) => isJsonLike(m))) return;
  throw notAcceptable([
    'application/json',
    'application/yaml',
    'application/vnd.kubernetes.protobuf',
  ]);
}

export const PATCH_TYPES = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/** The media type of a request body without parameters; '' when absent. */
export function contentTypeOf(header: string | undefined): string {
  if (header === undefined) return '';
  const m = parseMediaType(header);
  return m === undefined ? header.trim().toLowerCase() : `${m.type}/${m.subtype}`;
}

/** The Table version a client asked for before any plain JSON entry; undefined: a plain object. */
export function tableFormat(accept: readonly MediaType[]): 'v1' | 'v1beta1' | undefined {
  for (const m of accept) {
    if (m.params.as === 'Table' && m.params.g === 'meta.k8s.io' && isJsonLike(m)) {
      if (m.params.v === 'v1' || m.params.v === 'v1beta1') return m.params.v;
      continue;
    }
    if (isPlainJson(m)) return undefined;
  }
  return undefined;
}

export function tableContentType(version: 'v1' | 'v1beta1'): string {
  return `application/json;as=Table;v=${version};g=meta.k8s.io`;
}
