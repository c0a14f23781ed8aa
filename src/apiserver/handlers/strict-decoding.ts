/**
 * Request bodies decoded the way upstream's strict decoder does under `fieldValidation`
 * (Strict: unknown or repeated fields fail the request; Warn, the default: each becomes a
 * `Warning: 299` header; Ignore: nothing is checked). See `src/api/schema/field-validation.ts`
 * for the exact texts and codes.
 *
 * @module
 */
import type { ServerResponse } from 'node:http';
import { findYamlDuplicateKeys, parseJsonMembers } from '../../api/schema/duplicate-fields.js';
import {
  type FieldValidation,
  type OptionsKind,
  parseFieldValidation,
  resolveStrictDecoding,
  type StrictDecoding,
  strictErrors,
  warningHeaderValue,
} from '../../api/schema/field-validation.js';
import { findStrictJsonErrors, findUnknownFields } from '../../api/schema/unknown-fields.js';
import { decodeObjectBody } from '../http/body.js';
import { contentTypeOf } from '../http/media.js';
import type { ResourceCall } from './context.js';
import { kindSchema } from './kind-schema.js';

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

/** POST and PUT bodies: decoded, then checked for unknown and repeated fields. */
export async function decodeStrictObject(
  call: ResourceCall,
  body: Buffer,
  verb: 'create' | 'update',
): Promise<unknown> {
  const directive = fieldValidationOf(call, verb === 'create' ? 'CreateOptions' : 'UpdateOptions');
  const header = call.req.headers['content-type'];
  const value = await decodeObjectBody(body, header);
  if (directive === 'Ignore') return value;
  const type = contentTypeOf(header);
  const { schema, nav } = await kindSchema(call.def);
  let errors: string[];
  if (type === '' || type === 'application/json') {
    errors = findStrictJsonErrors(parseJsonMembers(body.toString('utf8')), schema, nav);
  } else if (type === 'application/yaml') {
    errors = [
      ...strictErrors.yaml(findYamlDuplicateKeys(body.toString('utf8'))),
      ...findUnknownFields(value, schema, nav, { sortKeys: true }).map(strictErrors.unknown),
    ];
  } else {
    // Protobuf bodies come from typed clients and cannot carry unknown fields.
    return value;
  }
  const obj = (value ?? {}) as { apiVersion?: unknown; kind?: unknown };
  const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
  settleStrictErrors(call, directive, {
    verb,
    bodyKind: typeof obj.kind === 'string' && obj.kind !== '' ? obj.kind : call.def.kind,
    bodyVersion:
      apiVersion === '' ? call.def.version : apiVersion.slice(apiVersion.indexOf('/') + 1),
    kind: call.def.kind,
    errors,
  });
  return value;
}
