/**
 * Test helper: the inverse of `../json-forms.ts`, as Go's `UnmarshalJSON` of those types reads
 * their JSON back into the struct's fields (k8s.io/apiextensions-apiserver `marshal.go`), so
 * the schema encoder can write a union from its JSON form.
 *
 * @module
 */
import type { MessageName } from '../schema.js';

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const INVERSES: Readonly<Partial<Record<MessageName, (json: unknown) => JsonObject>>> = {
  'core.authentication.ExtraValue': (json) => ({ items: json }),
  'apiextensions.JSONSchemaPropsOrArray': (json) =>
    Array.isArray(json) ? { jSONSchemas: json } : isObject(json) ? { schema: json } : {},
  // A schema object allows; `true`/`false` is the boolean alone.
  'apiextensions.JSONSchemaPropsOrBool': (json) =>
    isObject(json) ? { allows: true, schema: json } : { allows: json === true },
  'apiextensions.JSONSchemaPropsOrStringArray': (json) =>
    Array.isArray(json) ? { property: json } : isObject(json) ? { schema: json } : {},
};

/** The Go struct fields of a message's JSON value (its JSON form undone, if it has one). */
export function goFields(name: MessageName, json: unknown): JsonObject {
  const inverse = INVERSES[name];
  if (inverse !== undefined) return inverse(json);
  return (json ?? {}) as JsonObject;
}
