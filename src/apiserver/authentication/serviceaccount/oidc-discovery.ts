/**
 * ServiceAccount issuer discovery (upstream `pkg/serviceaccount/openidmetadata.go`): the
 * OpenID Provider Configuration at `/.well-known/openid-configuration` and the key set at
 * `/openid/v1/jwks`, so a relying party (a cloud's workload identity federation, Vault, …) can
 * verify our tokens without a Kubernetes client.
 *
 * Both are fixed JSON documents, built once: the configuration names the issuer, where the keys
 * are (`--service-account-jwks-uri`, or `https://<external address>/openid/v1/jwks`), and the
 * algorithms used; the key set holds every public key tokens are verified with. Upstream serves
 * them with `Cache-Control: public, max-age=3600` to anonymous users as well (the
 * `system:service-account-issuer-discovery` ClusterRole).
 *
 * @module
 */
import type { ServiceAccountPublicKey } from './keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
export const OPENID_CONFIGURATION_CONTENT_TYPE = 'application/json';
/** RFC 7517's media type for a JWK Set, as upstream serves it. */
export const JWKS_CONTENT_TYPE = 'application/jwk-set+json';
/** Upstream `cacheControl` / `mimeJWKS`: the documents change only on restart or rotation. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=3600';

/** Upstream `openIDMetadata`, in its field order. */
export interface OpenIdConfiguration {
  readonly issuer: string;
  readonly jwks_uri: string;
  readonly response_types_supported: readonly string[];
  readonly subject_types_supported: readonly string[];
  readonly id_token_signing_alg_values_supported: readonly string[];
}

/** A public JWK in go-jose's field order (`use`, `kty`, `kid`, `crv`, `alg`, `x`, `y`, `n`, `e`). */
export type PublicJwk =
  | {
      readonly use: 'sig';
      readonly kty: 'RSA';
      readonly kid: string;
      readonly alg: 'RS256';
      readonly n: string;
      readonly e: string;
    }
  | {
      readonly use: 'sig';
      readonly kty: 'EC';
      readonly kid: string;
      readonly crv: 'P-256';
      readonly alg: 'ES256';
      readonly x: string;
      readonly y: string;
    };

export interface DiscoveryDocuments {
  /** The body of `/.well-known/openid-configuration`. */
  readonly configuration: string;
  /** The body of `/openid/v1/jwks`. */
  readonly jwks: string;
}

export interface DiscoveryOptions {
  /** The issuer (`--service-account-issuer`, the first one). Must be https without a query. */
  readonly issuer: string;
  /** `--service-account-jwks-uri`; must be https when given. */
  readonly jwksUri?: string;
  /** host[:port] clients reach the API server at (upstream: the external address). */
  readonly externalAddress?: string;
  readonly keys: readonly ServiceAccountPublicKey[];
}

/**
 * Upstream `NewOpenIDMetadata`: both documents, serialised. Throws, as kube-apiserver refuses
 * to start, for an issuer that is not an https URL or has a query, a JWKS URI that is not
 * https, or neither a JWKS URI nor an external address.
 */
export function discoveryDocuments(options: DiscoveryOptions): DiscoveryDocuments {
  const issuer = parseUrl(options.issuer);
  if (issuer?.protocol !== 'https:') {
    throw new Error(`issuer URL must use https scheme, got: ${options.issuer}`);
  }
  if (issuer.search !== '')
    throw new Error(`issuer URL may not include a query, got: ${options.issuer}`);
  let jwksUri: string;
  if (options.jwksUri) {
    const parsed = parseUrl(options.jwksUri);
    if (parsed?.protocol !== 'https:') {
      throw new Error(`jwksURI requires https scheme, parsed as: ${options.jwksUri}`);
    }
    jwksUri = options.jwksUri;
  } else if (options.externalAddress) {
    jwksUri = `https://${options.externalAddress}${JWKS_PATH}`;
  } else {
    throw new Error('either the JWKS URI or the default external address, or both, must be set');
  }
  const configuration: OpenIdConfiguration = {
    issuer: options.issuer,
    jwks_uri: jwksUri,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    // A sorted set, as upstream's `sets.List`.
    id_token_signing_alg_values_supported: [...new Set(options.keys.map((k) => k.alg))].sort(),
  };
  return {
    configuration: JSON.stringify(configuration),
    jwks: JSON.stringify({ keys: options.keys.map(publicJwk) }),
  };
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A key as a public JWK (never the private parts: only the public KeyObject is exported). */
export function publicJwk(key: ServiceAccountPublicKey): PublicJwk {
  const jwk = key.publicKey.export({ format: 'jwk' });
  if (key.alg === 'RS256') {
    return { use: 'sig', kty: 'RSA', kid: key.kid, alg: 'RS256', n: jwk.n ?? '', e: jwk.e ?? '' };
  }
  return {
    use: 'sig',
    kty: 'EC',
    kid: key.kid,
    crv: 'P-256',
    alg: 'ES256',
    x: jwk.x ?? '',
    y: jwk.y ?? '',
  };
}
