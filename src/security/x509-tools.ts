/**
 * What PKI code shares: @peculiar/x509 loaded on first use, the WebCrypto parameters for a CA
 * key, and PEM text as tools expect it. Used by the serving certificates (`pki.ts`) and the
 * CertificateSigningRequest issuer (`csr-issuer.ts`).
 *
 * @module
 */
import type { KeyObject, webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';

/** WebCrypto parameters to import a CA key for signing and to sign with it. */
export function signingAlgorithmFor(key: KeyObject): {
  importParams: webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams;
  signParams: webcrypto.EcdsaParams;
} {
  const type = key.asymmetricKeyType;
  const curve = key.asymmetricKeyDetails?.namedCurve;
  if (type === 'ec' && curve === 'prime256v1') {
    return {
      importParams: { name: 'ECDSA', namedCurve: 'P-256' },
      signParams: { name: 'ECDSA', hash: 'SHA-256' },
    };
  }
  if (type === 'ec' && curve === 'secp384r1') {
    return {
      importParams: { name: 'ECDSA', namedCurve: 'P-384' },
      signParams: { name: 'ECDSA', hash: 'SHA-384' },
    };
  }
  if (type === 'rsa') {
    const rsa = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    return { importParams: rsa, signParams: rsa };
  }
  throw new Error(
    `unsupported CA key type ${type}${curve ? ` (${curve})` : ''}; use EC P-256/P-384 or RSA`,
  );
}

/** One trailing newline, Unix line ends: the form tools expect in a .crt file. */
export function pemText(pem: string): string {
  return `${pem.replace(/\r\n/g, '\n').trimEnd()}\n`;
}

let x509Module: Promise<typeof X509> | undefined;

/**
 * Imports @peculiar/x509 on first use. It depends on tsyringe, which throws at import time unless
 * the `reflect-metadata` polyfill is loaded first; a dynamic import keeps that order (a static
 * import would be evaluated before any code of this module), and keeps the library (~200 ms to
 * load) off the startup path when the certificates already exist.
 */
export function loadX509(): Promise<typeof X509> {
  x509Module ??= import('reflect-metadata').then(() => import('@peculiar/x509'));
  return x509Module;
}
