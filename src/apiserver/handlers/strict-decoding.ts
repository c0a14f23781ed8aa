/**
 * Request bodies decoded the way upstream's decoder does: fields the kind does not declare
 * are dropped (Go structs have nowhere to put them; custom resources are pruned by their
 * schema), and under `fieldValidation` they are reported (Strict: unknown or repeated fields
 * fail the request; Warn, the default: each becomes a `Warning: 299` header; Ignore:
 * nothing is reported). See `src/api/schema/field-validation.ts` for the exact texts and
 * codes.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { badRequest } from '../../api/errors.js';
import { isJsonObject, type JsonObject } from '../../api/object.js';
import {
  findDuplicateFields,
  findYamlDuplicateKeys,
  hasDuplicateKeys,
} from '../../api/schema/duplicate-fields.js';
import {
  type FieldValidation,
  type OptionsKind,
  parseFieldValidation,
  resolveStrictDecoding,
  type StrictDecoding,
  strictErrors,
  warningHeaderValue,
} from '../../api/schema/field-validation.js';
import { pruneUnknownFields } from '../../api/schema/prune-unknown.js';
import { findTypeError, typeErrorMessage } from '../../api/schema/type-errors.js';
import { decodeObjectBody } from '../http/body.js';
import { contentTypeOf } from '../http/media.js';
import { exactIntegers } from '../store/object-json.js';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

import type { ResourceCall } from './context.js';
import { customResourceProtobufError } from './custom-resource-protobuf.js';
import type { KindSchema } from './kind-schema.js';

export function fieldValidationOf(call: ResourceCall, kind: OptionsKind): FieldValidation {
  return parseFieldValidation(call.query, kind);
}

/** Adds one `Warning` header per text (kubectl prints each as `Warning: …`). */
export function sendWarnings(res: ServerResponse, warnings: readonly string[]): void {
  for (const w of warnings) res.appendHeader('Warning', warningHeaderValue(w));
}

/** Applies the directive to the strict errors of one request: throws, warns, or does nothing. */
export function settleStrictErrors(
  call: ResourceCall,
  directive: FieldValidation,
  decoding: StrictDecoding,
): void {
  const outcome = resolveStrictDecoding(directive, decoding);
  if (outcome.error) throw outcome.error;
  sendWarnings(call.res, outcome.warnings);
}

/**
 * Drops undeclared fields of `value` in place; returns their paths (in document order) when
 * the directive reports them.
 */
export function pruneReported(
  value: unknown,
  { schema, nav }: KindSchema,
  directive: FieldValidation,
): string[] {
  if (schema === undefined) return [];
  const removed: string[] = [];
  pruneUnknownFields(value, schema, nav, directive === 'Ignore' ? undefined : removed);
  return removed;
}

/** POST and PUT bodies: decoded, pruned, and checked for unknown and repeated fields. */
export async function decodeStrictObject(
  call: ResourceCall,
  body: Buffer,
  verb: 'create' | 'update',
  schema: KindSchema,
): Promise<unknown> {
  const directive = fieldValidationOf(call, verb === 'create' ? 'CreateOptions' : 'UpdateOptions');
  const header = call.req.headers['content-type'];
  if (call.def.customResource !== undefined && contentTypeOf(header) === PROTOBUF) {
    throw customResourceProtobufError(call.def, body);
  }
  const value = await decodeObjectBody(body, header, exactIntegers(call.def));
  checkTypes(call, value, schema);
  const unknown = pruneReported(value, schema, directive);
  if (directive === 'Ignore') return value;
  const type = contentTypeOf(header);
  let duplicates: string[];
  if (type === '' || type === 'application/json') {
    const text = body.toString('utf8');
    duplicates = hasDuplicateKeys(text)
      ? findDuplicateFields(text).map(strictErrors.duplicate)
      : [];
  } else if (type === 'application/yaml') {
    duplicates = strictErrors.yaml(findYamlDuplicateKeys(body.toString('utf8')));
  } else {
    duplicates = [];
  }
  const obj: JsonObject = isJsonObject(value) ? value : {};
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  settleStrictErrors(call, directive, {
    verb,
    bodyKind: typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : call.def.kind,
    bodyVersion:
      apiVersion === '' ? call.def.version : apiVersion.slice(apiVersion.indexOf('/') + 1),
    kind: call.def.kind,
    errors: [...unknown.map(strictErrors.unknown), ...duplicates],
  });
  return value;
}

/**
 * A built-in object with a value of the wrong JSON type fails as upstream's decoding into Go
 * structs does (400 `… cannot be handled as a Deployment: json: cannot unmarshal bool into Go
 * struct field EnvVar.spec.template.spec.containers.env.name of type string`). Custom
 * resources are checked by their schema's validation instead (422), as upstream.
 */
function checkTypes(call: ResourceCall, value: unknown, { schema, nav }: KindSchema): void {
  if (call.def.customResource !== undefined || schema === undefined) return;
  const obj: JsonObject = isJsonObject(value) ? value : {};
  // A non-string apiVersion or kind is reported by the body checks (upstream reads them first).
  if (obj.apiVersion !== undefined && typeof obj.apiVersion !== 'string') return;
  if (obj.kind !== undefined && typeof obj.kind !== 'string') return;
  const detail = findTypeError(value, schema, nav);
  if (detail === undefined) return;
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  const version =
    apiVersion === '' ? call.def.version : apiVersion.slice(apiVersion.indexOf('/') + 1);
  const kind = typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : call.def.kind;
  throw badRequest(typeErrorMessage(kind, version, call.def.kind, detail));
}
