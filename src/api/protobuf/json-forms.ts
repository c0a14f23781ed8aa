/**
 * Messages whose Go types write JSON of their own shape (`MarshalJSON`) from an ordinary
 * protobuf message: apiextensions' schema unions. Their tables (`schema-jsonschema.ts`)
 * decode to the Go struct's fields; the form here then turns that into the JSON Go writes
 * (k8s.io/apiextensions-apiserver `pkg/apis/apiextensions/v1/marshal.go`).
 *
 * @module
 */

import type { MessageName } from './schema.js';
import { authJsonForms } from './schema-auth.js';

type JsonObject = Record<string, unknown>;

/** The Go struct's decoded fields (omitempty table rows: absent fields are missing). */
export type JsonForm = (fields: JsonObject) => unknown;

function nonEmptyList(v: unknown): v is readonly unknown[] {
  return Array.isArray(v) && v.length > 0;
}

/** Go's `json.Marshal` of a nil pointer is `null`. */
function orNull(v: unknown): unknown {
  return v === undefined ? null : v;
}

/** JSON forms by message name. */
export const JSON_FORMS: Readonly<Partial<Record<MessageName, JsonForm>>> = {
  ...authJsonForms,
  // The list when it has items, else the single schema (null when nil).
  'apiextensions.JSONSchemaPropsOrArray': (f) =>
    nonEmptyList(f.jSONSchemas) ? f.jSONSchemas : orNull(f.schema),
  // A schema when set, else the boolean.
  'apiextensions.JSONSchemaPropsOrBool': (f) =>
    f.schema !== undefined ? f.schema : f.allows === true,
  // The property names when there are any, else the schema (null when nil).
  'apiextensions.JSONSchemaPropsOrStringArray': (f) =>
    nonEmptyList(f.property) ? f.property : orNull(f.schema),
};

/** The JSON of a decoded message: its own form when its Go type has one. */
export function jsonForm(name: MessageName, fields: JsonObject): unknown {
  const form = JSON_FORMS[name];
  return form === undefined ? fields : form(fields);
}
