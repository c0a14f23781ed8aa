/**
 * The protobuf form of the minimal v2 document: gnostic's `openapi.v2.Document`
 * (`google/gnostic openapiv2/OpenAPIv2.proto`), which is what kubectl 1.27/1.28 ask for
 * (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`). Field numbers are
 * listed below; vendor extensions are `NamedAny` whose `Any.yaml` holds the value as YAML.
 *
 * @module
 */
import { gvkYaml, type V2Document, type V2Parameter, type V2PatchPath } from './document-v2.js';
import { ProtoWriter } from './protobuf-writer.js';

/** Field numbers of the gnostic OpenAPI v2 messages this document uses. */
export const PB = {
  Document: { swagger: 1, info: 2, paths: 8 },
  Info: { title: 1, version: 2 },
  Paths: { path: 2 },
  NamedPathItem: { name: 1, value: 2 },
  PathItem: { patch: 8, parameters: 9 },
  Operation: {
    tags: 1,
    description: 3,
    operationId: 5,
    produces: 6,
    consumes: 7,
    parameters: 8,
    responses: 9,
    schemes: 10,
    vendorExtension: 13,
  },
  ParametersItem: { parameter: 1 },
  Parameter: { nonBodyParameter: 2 },
  NonBodyParameter: { query: 3, path: 4 },
  /** QueryParameterSubSchema; PathParameterSubSchema has the same first four fields. */
  QueryParameter: { required: 1, in: 2, description: 3, name: 4, type: 6, uniqueItems: 20 },
  PathParameter: { required: 1, in: 2, description: 3, name: 4, type: 5, uniqueItems: 19 },
  Responses: { responseCode: 1 },
  NamedResponseValue: { name: 1, value: 2 },
  ResponseValue: { response: 1 },
  Response: { description: 1 },
  NamedAny: { name: 1, value: 2 },
  Any: { yaml: 2 },
} as const;

export const GVK_EXTENSION = 'x-kubernetes-group-version-kind';

/** Encodes the document as gnostic `openapi.v2.Document` bytes. */
export function encodeV2Protobuf(doc: V2Document): Buffer {
  const w = new ProtoWriter();
  w.string(PB.Document.swagger, '2.0');
  w.message(PB.Document.info, (info) => {
    info.string(PB.Info.title, doc.info.title).string(PB.Info.version, doc.info.version);
  });
  w.message(PB.Document.paths, (paths) => {
    for (const p of doc.paths) {
      paths.message(PB.Paths.path, (named) => {
        named.string(PB.NamedPathItem.name, p.path);
        named.message(PB.NamedPathItem.value, (item) => pathItem(item, p));
      });
    }
  });
  return w.finish();
}

function pathItem(item: ProtoWriter, p: V2PatchPath): void {
  item.message(PB.PathItem.patch, (op) => {
    op.string(PB.Operation.tags, p.tag);
    op.string(PB.Operation.description, `partially update the specified ${p.gvk.kind}`);
    op.string(PB.Operation.operationId, p.operationId);
    op.string(PB.Operation.produces, 'application/json');
    for (const c of p.consumes) op.string(PB.Operation.consumes, c);
    for (const q of p.parameters) op.message(PB.Operation.parameters, (pi) => parameter(pi, q));
    op.message(PB.Operation.responses, (r) => {
      for (const [code, text] of [
        ['200', 'OK'],
        ['401', 'Unauthorized'],
      ] as const) {
        r.message(PB.Responses.responseCode, (named) => {
          named.string(PB.NamedResponseValue.name, code);
          named.message(PB.NamedResponseValue.value, (rv) =>
            rv.message(PB.ResponseValue.response, (resp) =>
              resp.string(PB.Response.description, text),
            ),
          );
        });
      }
    });
    op.string(PB.Operation.schemes, 'https');
    extension(op, 'x-kubernetes-action', 'patch\n');
    extension(op, GVK_EXTENSION, gvkYaml(p.gvk));
  });
  for (const q of p.pathParameters) item.message(PB.PathItem.parameters, (pi) => parameter(pi, q));
}

/** A `ParametersItem` holding a query or path `NonBodyParameter`. */
function parameter(item: ProtoWriter, q: V2Parameter): void {
  const f = q.in === 'query' ? PB.QueryParameter : PB.PathParameter;
  item.message(PB.ParametersItem.parameter, (param) =>
    param.message(PB.Parameter.nonBodyParameter, (nb) =>
      nb.message(q.in === 'query' ? PB.NonBodyParameter.query : PB.NonBodyParameter.path, (s) => {
        s.bool(f.required, q.in === 'path');
        s.string(f.in, q.in).string(f.description, q.description).string(f.name, q.name);
        s.string(f.type, q.type).bool(f.uniqueItems, true);
      }),
    ),
  );
}

function extension(op: ProtoWriter, name: string, yaml: string): void {
  op.message(PB.Operation.vendorExtension, (named) => {
    named.string(PB.NamedAny.name, name);
    named.message(PB.NamedAny.value, (any) => any.string(PB.Any.yaml, yaml));
  });
}
