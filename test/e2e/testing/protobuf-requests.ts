/**
 * Raw HTTPS requests to a running fleetyard with protobuf bodies written by hand (independent
 * of the server's own protobuf tables), for the e2e tests of protobuf request bodies.
 *
 * @module
 */
import { request } from 'node:https';
import type { Cluster } from './cluster.js';

export interface Reply {
  readonly status: number;
  readonly text: string;
}

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

export function send(c: Cluster, method: string, path: string, body?: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${c.token}`,
      accept: 'application/json',
    };
    if (body !== undefined) {
      headers['content-type'] = PROTOBUF;
      headers['content-length'] = String(body.length);
    }
    const req = request(new URL(path, c.url), { method, ca: c.ca, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

/** A length-delimited protobuf field. */
function field(no: number, payload: Buffer | string): Buffer {
  const bytes = Buffer.from(payload);
  return Buffer.concat([varint(no * 8 + 2), varint(bytes.length), bytes]);
}

/**
 * A Kubernetes protobuf body (`k8s\0` + runtime.Unknown{typeMeta, raw}) of an object with only
 * `metadata.name` set: ObjectMeta is field 1 of every top-level kind, name its field 1.
 */
export function namedObject(apiVersion: string, kind: string, name: string): Buffer {
  return Buffer.concat([
    Buffer.from('k8s\0', 'latin1'),
    field(1, Buffer.concat([field(1, apiVersion), field(2, kind)])),
    field(2, field(1, field(1, name))),
  ]);
}
