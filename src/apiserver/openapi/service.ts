/**
 * The OpenAPI endpoints, after kube-openapi's handlers:
 *
 * - `GET /openapi/v3`: the root, `{"paths": {"apis/apps/v1": {"serverRelativeURL":
 *   "/openapi/v3/apis/apps/v1?hash=<SHA-512 hex>"}, …}}`;
 * - `GET /openapi/v3/<api/v1 | apis/g/v>[?hash=H]`: one group-version, JSON only. With the
 *   current hash the answer may be cached for good (`Cache-Control: public, immutable`,
 *   `Expires` a year ahead); with an outdated one it is a 301 to the current URL;
 * - `GET /openapi/v2`: the minimal v2 document, protobuf when asked for (kubectl 1.27/1.28,
 *   content type `application/com.github.proto-openapi.spec.v2.v1.0+protobuf`: kubectl's MIME
 *   parser rejects the `@v1.0` spelling it sends), else JSON;
 * - `GET /swagger-2.0.0.pb-v1`: the same protobuf (old clients' fallback path).
 *
 * Built-in schemas are loaded on the first OpenAPI request, not at start.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable, pathNotFound, serviceUnavailable } from '../../api/errors.js';
import { type MediaType, parseAccept } from '../http/media.js';
import {
  type BuiltDocument,
  type BuiltV2Document,
  OpenApiDocumentCache,
} from './document-cache.js';
import { serverRelativeUrl } from './document-v3.js';
import { sendDocument, sendRedirect } from './http-answer.js';
import type { OpenApiDeps } from './types.js';

export const OPENAPI_V2_PROTOBUF_CONTENT_TYPE =
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const V2_PROTOBUF_SUBTYPES = [
  'com.github.proto-openapi.spec.v2.v1.0+protobuf',
  'com.github.proto-openapi.spec.v2@v1.0+protobuf',
];
const V3_PREFIX = '/openapi/v3/';

/** Every document as served, for tests and the heap benchmark. */
export interface OpenApiSnapshot {
  readonly root: BuiltDocument;
  /** By key (`api/v1`, `apis/apps/v1`). */
  readonly groupVersions: ReadonlyMap<string, BuiltDocument>;
  readonly v2Json: Buffer;
  readonly v2Protobuf: Buffer;
  /** `$ref` targets the built-in set lacks, by group-version (empty when the set is whole). */
  readonly missingRefs: ReadonlyMap<string, readonly string[]>;
}

export interface OpenApiService {
  /**
   * Serves `path` (a URL pathname) when it is an OpenAPI path and the method GET or HEAD;
   * false otherwise. Throws a StatusError (404 unknown group-version, 406, 503 schemas not
   * loadable) for the caller's usual error rendering.
   */
  handleOpenApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<boolean>;
  /** Builds (if needed) and returns every document. */
  snapshot(): Promise<OpenApiSnapshot>;
  /** Stops listening to the registry. */
  close(): void;
}

export function createOpenApiService(deps: OpenApiDeps): OpenApiService {
  const now = deps.now ?? (() => new Date());
  let loading: Promise<OpenApiDocumentCache> | undefined;
  let cache: OpenApiDocumentCache | undefined;
  const unsubscribe = deps.registry.onChange(() => cache?.invalidate());

  const documents = (): Promise<OpenApiDocumentCache> => {
    loading ??= deps.loadBuiltinSchemas().then(
      (schemas) => {
        cache = new OpenApiDocumentCache(deps.registry, schemas, now);
        return cache;
      },
      (e: unknown) => {
        loading = undefined; // the next request tries again
        throw serviceUnavailable(`OpenAPI schemas could not be loaded: ${String(e)}`);
      },
    );
    return loading;
  };

  async function handleOpenApi(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const accept = parseAccept(req.headers.accept);
    if (path === '/openapi/v3') {
      const root = (await documents()).root();
      sendDocument(req, res, answer(root, 'application/json'));
    } else if (path.startsWith(V3_PREFIX)) {
      serveGroupVersion(req, res, await documents(), path.slice(V3_PREFIX.length), query, accept);
    } else if (path === '/openapi/v2' || path === '/swagger-2.0.0.pb-v1') {
      const format = path === '/openapi/v2' ? v2Format(accept) : 'protobuf';
      if (format === undefined) {
        throw notAcceptable(['application/json', OPENAPI_V2_PROTOBUF_CONTENT_TYPE]);
      }
      serveV2(req, res, (await documents()).v2(), format);
    } else {
      return false;
    }
    return true;
  }

  function serveGroupVersion(
    req: IncomingMessage,
    res: ServerResponse,
    docs: OpenApiDocumentCache,
    key: string,
    query: URLSearchParams,
    accept: readonly MediaType[],
  ): void {
    const doc = docs.groupVersion(key);
    if (doc === undefined) throw pathNotFound();
    // Only JSON: kube-openapi also offers protobuf v3, which no supported client asks for.
    if (!acceptsJson(accept)) throw notAcceptable(['application/json']);
    const hash = query.get('hash');
    if (hash !== null && hash !== '' && hash !== doc.hash) {
      sendRedirect(res, serverRelativeUrl(key, doc.hash), {
        'Content-Type': 'application/json',
        ETag: `"${doc.hash}"`,
        Vary: 'Accept',
      });
      return;
    }
    const headers: Record<string, string> = { Vary: 'Accept' };
    if (hash !== null && hash !== '') {
      headers['Cache-Control'] = 'public, immutable';
      headers.Expires = oneYearFrom(now()).toUTCString();
    }
    sendDocument(req, res, { ...answer(doc, 'application/json'), headers });
  }

  return {
    handleOpenApi,
    async snapshot(): Promise<OpenApiSnapshot> {
      const docs = await documents();
      const groupVersions = new Map(docs.keys().map((k) => [k, docs.groupVersion(k)!]));
      const v2 = docs.v2();
      return {
        root: docs.root(),
        groupVersions,
        v2Json: v2.json,
        v2Protobuf: v2.protobuf,
        missingRefs: docs.missingRefs(),
      };
    },
    close: unsubscribe,
  };
}

function serveV2(
  req: IncomingMessage,
  res: ServerResponse,
  v2: BuiltV2Document,
  format: 'json' | 'protobuf',
): void {
  const protobuf = format === 'protobuf';
  sendDocument(req, res, {
    ...answer(v2, protobuf ? OPENAPI_V2_PROTOBUF_CONTENT_TYPE : 'application/json'),
    body: protobuf ? v2.protobuf : v2.json,
    headers: { Vary: 'Accept' },
  });
}

function answer(doc: BuiltDocument, contentType: string) {
  return { body: doc.json, contentType, etag: doc.hash, modified: doc.modified };
}

function isJsonOrWildcard(m: MediaType): boolean {
  if (m.type === '*') return true;
  return m.type === 'application' && (m.subtype === 'json' || m.subtype === '*');
}

function acceptsJson(accept: readonly MediaType[]): boolean {
  return accept.length === 0 || accept.some(isJsonOrWildcard);
}

/** kube-openapi's v2 choice: the first Accept entry (by q) that is JSON-ish or v2 protobuf. */
function v2Format(accept: readonly MediaType[]): 'json' | 'protobuf' | undefined {
  if (accept.length === 0) return 'json';
  for (const m of accept) {
    if (isJsonOrWildcard(m)) return 'json';
    if (m.type === 'application' && V2_PROTOBUF_SUBTYPES.includes(m.subtype)) return 'protobuf';
  }
  return undefined;
}

function oneYearFrom(d: Date): Date {
  const out = new Date(d.getTime());
  out.setUTCFullYear(out.getUTCFullYear() + 1);
  return out;
}
