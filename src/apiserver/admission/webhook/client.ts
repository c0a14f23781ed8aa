/**
 * One AdmissionReview POST over HTTPS, as upstream's webhook REST client makes it: JSON body,
 * TLS verified against the webhook's `caBundle` (or the system roots) under the target's server
 * name, the call abandoned after `timeoutSeconds`. Failures are thrown as {@link CallError}
 * whose message is Go's wording (`Post "<url>": dial tcp 127.0.0.1:9443: connect: connection
 * refused`, `…: context deadline exceeded`, `tls: failed to verify certificate: x509: …`), since
 * upstream puts it in the 500 a failing webhook causes.
 *
 * Differs from upstream: a response body over 32 MiB is refused (upstream reads any size), and
 * connections are not kept alive between calls.
 *
 * @module
 */

import { request } from 'node:https';
import { isIP } from 'node:net';
import type { Clock } from '../../../util/clock.js';
import { hostPort, TargetError, type WebhookTarget } from './endpoint.js';

/** A call that failed before a usable answer; the message is upstream's reason text. */
export class CallError extends Error {}

const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

interface NodeError extends Error {
  code?: string;
  cert?: { subjectaltname?: string };
}

function isNodeError(e: unknown): e is NodeError {
  return e instanceof Error;
}

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/** Go's words for a transport error. */
function goReason(e: unknown, address: string, serverName: string): string {
  if (!isNodeError(e)) return String(e);
  const code = e.code ?? '';
  if (code === 'ECONNREFUSED') return `dial tcp ${address}: connect: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `dial tcp: lookup ${address.replace(/:\d+$/, '')}: no such host`;
  }
  if (code === 'ECONNRESET') return `read tcp ${address}: read: connection reset by peer`;
  if (UNKNOWN_AUTHORITY.has(code)) {
    return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return `tls: failed to verify certificate: ${hostnameError(e.cert?.subjectaltname ?? '', serverName)}`;
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  }
  return e.message;
}

/** Go's client-go words for a non-2xx answer without a Status body (`NewGenericServerResponse`, abridged). */
function httpStatusReason(code: number, body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'kind' in parsed &&
      parsed.kind === 'Status' &&
      'message' in parsed &&
      typeof parsed.message === 'string'
    ) {
      return parsed.message;
    }
  } catch {
    // not JSON: fall through to the generic text
  }
  if (code >= 500) {
    return `an error on the server (${JSON.stringify(body.trim() || 'unknown')}) has prevented the request from succeeding`;
  }
  return `the server responded with the status code ${code} but did not return more information`;
}

/**
 * POSTs `body` to `target` and returns the decoded JSON answer of a 2xx response.
 * @throws {CallError} with upstream's reason text.
 */
export function postReview(
  target: WebhookTarget,
  body: string,
  timeoutSeconds: number,
  clock: Pick<Clock, 'setTimer'>,
): Promise<unknown> {
  const prefix = `Post "${target.url}": `;
  let dial: { host: string; port: number };
  try {
    dial = target.dial();
  } catch (e) {
    if (e instanceof TargetError) return Promise.reject(new CallError(prefix + e.message));
    throw e;
  }
  const address = hostPort(dial.host, dial.port);
  return new Promise<unknown>((resolve, reject) => {
    let settled = false;
    const finish = (err: CallError | undefined, value?: unknown): void => {
      if (settled) return;
      settled = true;
      cancelTimer();
      if (err) reject(err);
      else resolve(value);
    };
    const req = request({
      host: dial.host,
      port: dial.port,
      method: 'POST',
      path: target.path,
      servername: target.serverName,
      ...(target.ca !== undefined ? { ca: target.ca } : {}),
      agent: false,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'Content-Length': Buffer.byteLength(body),
        'User-Agent': 'kube-apiserver-admission',
      },
    });
    // Upstream's per-webhook context deadline covers connect, TLS and the whole answer.
    const cancelTimer = clock.setTimer(timeoutSeconds * 1000, () => {
      finish(new CallError(`${prefix}context deadline exceeded`));
      req.destroy();
    });
    req.on('error', (e) => finish(new CallError(prefix + goReason(e, address, target.serverName))));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          finish(new CallError(`${prefix}response body larger than ${MAX_RESPONSE_BYTES} bytes`));
          req.destroy();
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', (e) =>
        finish(new CallError(prefix + goReason(e, address, target.serverName))),
      );
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        if (code < 200 || code > 299) {
          finish(new CallError(httpStatusReason(code, text)));
          return;
        }
        try {
          finish(undefined, JSON.parse(text));
        } catch (e) {
          finish(
            new CallError(
              `couldn't decode webhook response: ${e instanceof Error ? e.message : String(e)}`,
            ),
          );
        }
      });
    });
    req.end(body);
  });
}

/**
 * Go's `x509.HostnameError`: for a name, the certificate's DNS names; for an IP, its IP SANs
 * (in Go's short form); or why there are none.
 */
function hostnameError(subjectAltName: string, host: string): string {
  const sans = subjectAltName.split(', ').filter((n) => n !== '');
  const of = (prefix: string) =>
    sans.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
  let valid: string;
  if (isIP(host) !== 0) {
    const ips = of('IP Address:').map(goIP);
    if (ips.length === 0) {
      return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    }
    valid = ips.join(', ');
  } else {
    valid = of('DNS:').join(', ');
  }
  if (valid === '')
    return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

/** Go's `net.IP.String()`: IPv4 as is; IPv6 compressed (`0:0:0:0:0:0:0:1` → `::1`). */
function goIP(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ip.split(':').map((g) => g.replace(/^0+(?=.)/, '').toLowerCase());
  let best = { start: -1, length: 0 };
  for (let i = 0; i < groups.length; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  // Go compresses a run of two or more zero groups only.
  if (best.length < 2) return groups.join(':');
  const head = groups.slice(0, best.start).join(':');
  const tail = groups.slice(best.start + best.length).join(':');
  return `${head}::${tail}`;
}
