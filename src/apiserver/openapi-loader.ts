/**
 * The OpenAPI service, loaded on the first `/openapi` or `/swagger` request: its document
 * builders are not on the startup path (kubectl asks for them only before validating a write
 * or for `explain`). Until then a registry change has nothing to invalidate.
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenApiDeps, OpenApiService, OpenApiSnapshot } from './openapi/index.js';

const OPENAPI_PATHS = /^\/(openapi\/|swagger-2\.0\.0\.pb-v1$)/;

export function lazyOpenApiService(deps: OpenApiDeps): OpenApiService {
  let service: Promise<OpenApiService> | undefined;
  let closed = false;
  const load = (): Promise<OpenApiService> => {
    service ??= import('./openapi/service.js').then((m) => {
      const s = m.createOpenApiService(deps);
      if (closed) s.close();
      return s;
    });
    return service;
  };
  return {
    async handleOpenApi(
      req: IncomingMessage,
      res: ServerResponse,
      path: string,
      query: URLSearchParams,
    ): Promise<boolean> {
      if (!OPENAPI_PATHS.test(path)) return false;
      return (await load()).handleOpenApi(req, res, path, query);
    },
    async snapshot(): Promise<OpenApiSnapshot> {
      return (await load()).snapshot();
    },
    close(): void {
      closed = true;
      void service?.then((s) => s.close());
    },
  };
}
