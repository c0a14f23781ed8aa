/**
 * OpenAPI v3 and minimal v2 documents for kubectl (field-validation probe, explain, patch
 * computation) and other clients. See `service.ts` for the endpoints.
 *
 * @module
 */
export { contentHash, OPENAPI_INFO } from './document-v3.js';
export {
  createOpenApiService,
  OPENAPI_V2_PROTOBUF_CONTENT_TYPE,
  type OpenApiService,
  type OpenApiSnapshot,
} from './service.js';
export type { BuiltinSchemaSet, LoadBuiltinSchemas, OpenApiDeps } from './types.js';
