/**
 * Kubernetes URL library (upstream `k8s.io/apiserver/pkg/cel/library/urls.go`): `url(string)`,
 * `isURL(string)` and the accessors `getScheme`, `getHost`, `getHostname`, `getPort`,
 * `getEscapedPath`, `getQuery` on the `kubernetes.URL` type, with Go `net/url` semantics.
 *
 * @module
 */
import type { Environment } from '@marcbachmann/cel-js';
import { chargeCost } from '../cost.js';
import { escapedPath, type GoUrl, hostname, parseRequestUri, port, query } from './go-url.js';
import { CelLibraryError } from './values-compare.js';

/** A parsed URL as a CEL value. */
export class KubernetesUrl {
  readonly url: GoUrl;
  constructor(url: GoUrl) {
    this.url = url;
  }
}

export function toUrl(s: string): KubernetesUrl {
  chargeCost(s.length);
  const r = parseRequestUri(s);
  if (!r.ok) throw new CelLibraryError(`URL parse error during conversion from string: ${r.error}`);
  return new KubernetesUrl(r.url);
}

export function isUrl(s: string): boolean {
  chargeCost(s.length);
  return parseRequestUri(s).ok;
}

const T = 'kubernetes.URL';

export function registerUrls(env: Environment): void {
  env
    .registerType(T, KubernetesUrl)
    .registerFunction(`url(string): ${T}`, toUrl)
    .registerFunction('isURL(string): bool', isUrl)
    .registerFunction(`${T}.getScheme(): string`, (u: KubernetesUrl) => u.url.scheme)
    .registerFunction(`${T}.getHost(): string`, (u: KubernetesUrl) => u.url.host)
    .registerFunction(`${T}.getHostname(): string`, (u: KubernetesUrl) => hostname(u.url))
    .registerFunction(`${T}.getPort(): string`, (u: KubernetesUrl) => port(u.url))
    .registerFunction(`${T}.getEscapedPath(): string`, (u: KubernetesUrl) => escapedPath(u.url))
    .registerFunction(`${T}.getQuery(): map<string, list<string>>`, (u: KubernetesUrl) =>
      Object.assign(Object.create(null), Object.fromEntries(query(u.url))),
    );
}
