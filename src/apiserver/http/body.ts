/**
 * Reading and decoding request bodies, with the 3 MiB limit upstream applies
 * (`MaxRequestBodyBytes`): larger bodies get 413 before they are buffered.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { errorMessage } from '../../api/error-message.js';
import { badRequest, requestEntityTooLarge, unsupportedMediaType } from '../../api/errors.js';
import { parseJson } from '../../api/int64-json.js';
import { jsonDepthProblem, valueDepthProblem } from '../../api/json-depth.js';
import { decodeYamlText } from '../../api/yaml-decode.js';
import { contentTypeOf } from './media.js';

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Buffers the body; rejects with 413 past `limit` bytes (declared or streamed). */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > limit) {
    req.resume();
    return Promise.reject(requestEntityTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(requestEntityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}

const OBJECT_MEDIA_TYPES = ['application/json', 'application/yaml'];
/** Kubernetes protobuf (`k8s\0` + runtime.Unknown), sent by client-go's typed clients. */
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/**
 * Decodes a POST/PUT (or DELETE options) body: JSON, YAML, Kubernetes protobuf (client-go's
 * typed clients send it since 1.32, so `kubectl create configmap` does), or no Content-Type
 * at all (kubectl's `scale --current-replicas` PUT sends none; upstream reads it as JSON).
 * JSON integers beyond 2^53 decode exactly (as bigints) unless `exactIntegers` is false: see
 * `decodeObjectJson`.
 */
export async function decodeObjectBody(
  body: Buffer,
  contentTypeHeader: string | undefined,
  exactIntegers = true,
): Promise<unknown> {
  const type = contentTypeOf(contentTypeHeader);
  if (type === '' || type === 'application/json') return decodeJson(body, exactIntegers);
  if (type === 'application/yaml') return decodeYaml(body);
  if (type === PROTOBUF) {
    // Loaded on first use: its schema tables cost ~35 ms at startup otherwise.
    const { decodeKubernetesProtobuf } = await import('../../api/protobuf/decode.js');
    const object = decodeKubernetesProtobuf(body).object;
    // A RawExtension carries JSON of any depth; the rest of the server walks it recursively.
    const problem = valueDepthProblem(object);
    if (problem !== undefined) throw badRequest(`couldn't decode the protobuf object: ${problem}`);
    return object;
  }
  throw unsupportedMediaType(type, [...OBJECT_MEDIA_TYPES, PROTOBUF]);
}

/**
 * A JSON body; its depth is checked on the text before JSON.parse (which is iterative in V8,
 * but every walker after it is not): see `src/api/json-depth.ts`.
 */
export function decodeJson(body: Buffer, exactIntegers = true): unknown {
  const text = body.toString('utf8');
  if (text.trim() === '') throw badRequest('the request body is empty');
  const problem = jsonDepthProblem(text);
  if (problem !== undefined) {
    throw badRequest(`couldn't get version/kind; json parse error: ${problem}`);
  }
  try {
    return exactIntegers ? parseJson(text) : JSON.parse(text);
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${errorMessage(e)}`);
  }
}

/**
 * A YAML body (upstream converts it to JSON first, hence the prefix of its errors). A static
 * import: the bundle holds the yaml package anyway (apply and the kubeconfig reader import
 * it), and a dynamic `import('yaml')` of this CommonJS package yields only a default export
 * once bundled by esbuild, which answered every YAML body `parse is not a function`.
 */
export function decodeYaml(body: Buffer): unknown {
  try {
    return decodeYamlText(body.toString('utf8'));
  } catch (e) {
    throw badRequest(`error converting YAML to JSON: ${errorMessage(e)}`);
  }
}
