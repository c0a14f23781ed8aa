import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { DEFAULT_ISSUER } from './claims.js';
import {
  inMemoryServiceAccountKey,
  keyIdOf,
  publicKeyFrom,
  serviceAccountKeyFrom,
} from './keys.js';
import { discoveryDocuments, JWKS_CONTENT_TYPE } from './oidc-discovery.js';

const rsa = publicKeyFrom(inMemoryServiceAccountKey().publicKey);
const ec = publicKeyFrom(
  serviceAccountKeyFrom(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey).publicKey,
);

describe('OIDC discovery documents', () => {
  it('configuration: upstream fields in upstream order, jwks_uri from the external address', () => {
    const docs = discoveryDocuments({
      issuer: DEFAULT_ISSUER,
      externalAddress: '127.0.0.1:6443',
      keys: [rsa],
    });
    assert.equal(
      docs.configuration,
      `{"issuer":"${DEFAULT_ISSUER}","jwks_uri":"https://127.0.0.1:6443/openid/v1/jwks",` +
        '"response_types_supported":["id_token"],"subject_types_supported":["public"],' +
        '"id_token_signing_alg_values_supported":["RS256"]}',
    );
    assert.equal(JWKS_CONTENT_TYPE, 'application/jwk-set+json');
  });

  it('jwks: each public key, with kid, that verifiers can import back', () => {
    const { jwks, configuration } = discoveryDocuments({
      issuer: 'https://issuer.example/cluster',
      jwksUri: 'https://keys.example/jwks',
      keys: [rsa, ec],
    });
    const parsed = JSON.parse(jwks) as { keys: (JsonWebKey & { kid: string })[] };
    assert.deepEqual(
      parsed.keys.map((k) => Object.keys(k).join()),
      ['use,kty,kid,alg,n,e', 'use,kty,kid,crv,alg,x,y'],
    );
    for (const [i, want] of [rsa, ec].entries()) {
      const jwk = parsed.keys[i];
      assert.ok(jwk);
      assert.equal(jwk.kid, want.kid);
      assert.equal(keyIdOf(createPublicKey({ key: jwk, format: 'jwk' })), want.kid);
      assert.equal(jwk.d, undefined, 'no private part');
    }
    const config = JSON.parse(configuration) as Record<string, unknown>;
    assert.equal(config.jwks_uri, 'https://keys.example/jwks');
    assert.deepEqual(config.id_token_signing_alg_values_supported, ['ES256', 'RS256']);
  });

  const refused: {
    name: string;
    issuer: string;
    jwksUri?: string;
    external?: string;
    error: RegExp;
  }[] = [
    { name: 'an http issuer', issuer: 'http://x', external: 'h', error: /must use https scheme/ },
    { name: 'an issuer with a query', issuer: 'https://x?a=b', external: 'h', error: /query/ },
    { name: 'an http JWKS URI', issuer: 'https://x', jwksUri: 'http://k', error: /jwksURI/ },
    { name: 'no JWKS URI nor address', issuer: 'https://x', error: /either the JWKS URI/ },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}`, () => {
      assert.throws(
        () =>
          discoveryDocuments({
            issuer: c.issuer,
            keys: [rsa],
            ...(c.jwksUri ? { jwksUri: c.jwksUri } : {}),
            ...(c.external ? { externalAddress: c.external } : {}),
          }),
        c.error,
      );
    });
  }
});
