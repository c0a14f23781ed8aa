/**
 * Reading the server's answers for `ApiClient`: a response's status code and body text, a
 * non-2xx answer as the typed error it stands for (a Status body decoded, 410 as
 * {@link ExpiredError}), and a list answer checked item by item (every item an object; list
 * metadata kept only where its fields have their types).
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { isKubeObject } from '../api/is-kube-object.js';
import type { ListMeta } from '../api/model/index.js';
import { isJsonObject, type KubeObject } from '../api/object.js';
import {
  ExpiredError,
  parseStatusBody,
  StatusCodeError,
  statusCodeError,
} from './lister-watcher.js';

/** One exchange's outcome: the status code and the whole body. */
export interface Answer {
  readonly code: number;
  readonly text: string;
}

/**
 * A list answer (`…List` kinds): `items` is never null here. Its items are plain objects of the
 * listed kind, without `kind`/`apiVersion` (as upstream's); narrow them with `asKind`.
 */
export interface KubeList {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ListMeta;
  readonly items: KubeObject[];
}

/** Reads a response to its end; rejects when the connection closes first. */
export function readAnswer(res: IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () =>
      resolve({ code: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
    );
    res.on('error', reject);
    res.on('close', () => {
      if (!res.complete) reject(new Error('the connection closed before the response ended'));
    });
  });
}

export /** The typed error of a non-2xx answer; a body that is no JSON object is kept as the message. */
function errorOf(answer: Answer): StatusCodeError {
  const status = parseStatusBody(answer.text);
  if (status !== undefined) return statusCodeError(answer.code, status);
  const message = answer.text.trim()
    ? `the server responded with the status code ${answer.code}: ${answer.text.slice(0, 200)}`
    : undefined;
  return answer.code === 410
    ? new ExpiredError(undefined, message)
    : new StatusCodeError(answer.code, undefined, message);
}

export /** A list answer's items and list metadata; throws when `items` holds anything but objects. */
function kubeList(body: KubeObject, path: string): KubeList {
  const items: unknown = body.items ?? [];
  if (!Array.isArray(items) || !items.every(isKubeObject)) {
    throw new Error(`GET ${path}: the response is not a list`);
  }
  const meta: unknown = body.metadata;
  const { resourceVersion, continue: token, remainingItemCount } = isJsonObject(meta) ? meta : {};
  return {
    ...(body.apiVersion !== undefined ? { apiVersion: body.apiVersion } : {}),
    ...(body.kind !== undefined ? { kind: body.kind } : {}),
    metadata: {
      ...(typeof resourceVersion === 'string' ? { resourceVersion } : {}),
      ...(typeof token === 'string' ? { continue: token } : {}),
      ...(typeof remainingItemCount === 'number' ? { remainingItemCount } : {}),
    },
    items,
  };
}
