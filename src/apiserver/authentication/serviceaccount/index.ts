/**
 * ServiceAccount tokens: the signing key, JWS, claims, the token authenticator, the
 * TokenRequest API, legacy Secret tokens and OIDC issuer discovery.
 *
 * @module
 */
export * from './authenticator.js';
export * from './claims.js';
export { JwsError, MAX_TOKEN_BYTES, parseJws, signJws, verifyJws } from './jwt.js';
export * from './keys.js';
export * from './legacy-token.js';
export * from './oidc-discovery.js';
export * from './token-request.js';
