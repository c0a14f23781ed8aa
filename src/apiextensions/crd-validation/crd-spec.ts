/**
 * `spec` of a CustomResourceDefinition in upstream's internal form (upstream
 * `validateCustomResourceDefinitionSpec`): group, scope, versions and the storage version,
 * per-version and top-level schemas, subresources, printer columns, selectable fields, names
 * and conversion — with upstream's order of errors and its exact texts.
 *
 * @module
 */
import { errorMessage } from '../../api/error-message.js';
import { type FieldError, type FieldPath, fieldErrors } from '../../api/field-error.js';
import { isJsonObject, type JsonObject } from '../../api/object.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../../api/validation/dns.js';
import { asRaw } from '../schema/raw-schema.js';
import { validateColumn, validateSelectableFields, validateSubresources } from './crd-columns.js';
import {
  hasStatus,
  type InternalSpec,
  type InternalVersion,
  subresourcesFor,
  text,
} from './crd-internal.js';
import { validateNames, validateRequiredNames } from './crd-names.js';
import { type SchemaCheckOptions, validateSchemaHolder } from './crd-schema.js';

export interface SpecCheckOptions extends SchemaCheckOptions {
  readonly requireOpenAPISchema: boolean;
  readonly requireRecognizedConversionReviewVersion: boolean;
}

function enumString(p: FieldPath, value: string, accepted: readonly string[]): FieldError[] {
  if (value === '') return [fieldErrors.required(p)];
  return accepted.includes(value) ? [] : [fieldErrors.notSupported(p, value, accepted)];
}

function validateGroup(group: string, p: FieldPath): FieldError[] {
  if (group === '') return [fieldErrors.required(p)];
  const bad = isDNS1123Subdomain(group);
  if (bad.length > 0) return [fieldErrors.invalid(p, group, bad.join(','))];
  if (group.split('.').length < 2)
    return [fieldErrors.invalid(p, group, 'should be a domain with at least one dot')];
  return [];
}

function deprecationWarningErrors(v: InternalVersion): string[] {
  const w = v.deprecationWarning;
  if (w === undefined || w === null) return [];
  if (!v.deprecated) return ['can only be set for deprecated versions'];
  const s = text(w);
  const errs: string[] = [];
  if (new TextEncoder().encode(s).length > 256) errs.push('must be <= 256 characters long');
  if (s === '') errs.push('must not be an empty string');
  let byte = 0;
  for (const ch of s) {
    if (/\p{Cc}/u.test(ch)) {
      errs.push(
        `must only contain printable UTF-8 characters; control character found at index ${byte}`,
      );
      break;
    }
    if (!/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) {
      errs.push(
        `must only contain printable UTF-8 characters; non-printable character found at index ${byte}`,
      );
      break;
    }
    byte += new TextEncoder().encode(ch).length;
  }
  return errs;
}

function validateVersion(
  spec: InternalSpec,
  v: InternalVersion,
  o: SpecCheckOptions,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = deprecationWarningErrors(v).map((m) =>
    fieldErrors.invalid(p.child('deprecationWarning'), v.deprecationWarning, m),
  );
  errs.push(
    ...validateSchemaHolder(v.schema, hasStatus(subresourcesFor(spec, v)), o, p.child('schema')),
  );
  errs.push(...validateSubresources(v.subresources, p.child('subresources')));
  v.columns.forEach((c, i) => {
    errs.push(...validateColumn(c, p.child('additionalPrinterColumns').index(i)));
  });
  if (v.selectableFields.length > 0) {
    const schema = asRaw(v.effectiveSchema?.openAPIV3Schema);
    if (!schema) {
      errs.push(
        fieldErrors.invalid(
          p.child('selectableFields'),
          '',
          'selectableFields may only be set when version.schema.openAPIV3Schema is not included',
        ),
      );
    } else {
      errs.push(
        ...validateSelectableFields(v.selectableFields, schema, p.child('selectableFields')),
      );
    }
  }
  return errs;
}

function schemaPresence(spec: InternalSpec, o: SpecCheckOptions, p: FieldPath): FieldError[] {
  if (spec.validation && asRaw(spec.validation.openAPIV3Schema)) return [];
  const missing = spec.versions.filter((v) => !asRaw(v.schema?.openAPIV3Schema));
  if (o.requireOpenAPISchema) {
    return missing.map((v) =>
      fieldErrors.required(
        p.child('versions').index(v.index).child('schema').child('openAPIV3Schema'),
        'schemas are required',
      ),
    );
  }
  return missing
    .filter((v) => v.served)
    .map((v) =>
      fieldErrors.required(
        p.child('versions').index(v.index).child('schema', 'openAPIV3Schema'),
        'because otherwise all fields are pruned',
      ),
    );
}

function versionListErrors(spec: InternalSpec, versionsJson: unknown, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = spec.versions.map((v) => v.name);
  if (new Set(names).size !== names.length) {
    errs.push(
      fieldErrors.invalid(p.child('versions'), versionsJson, 'must contain unique version names'),
    );
  }
  if (spec.versions.filter((v) => v.storage).length !== 1) {
    errs.push(
      fieldErrors.invalid(
        p.child('versions'),
        versionsJson,
        'must have exactly one version marked as storage version',
      ),
    );
  }
  if (spec.version !== '') {
    const bad = isDNS1035Label(spec.version);
    if (bad.length > 0)
      errs.push(fieldErrors.invalid(p.child('version'), spec.version, bad.join(',')));
  }
  return errs;
}

/** Upstream `validateCustomResourceDefinitionSpec`. `versionsJson` is printed as the bad value. */
export function validateSpec(
  spec: InternalSpec,
  versionsJson: unknown,
  o: SpecCheckOptions,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [...validateGroup(spec.group, p.child('group'))];
  errs.push(...enumString(p.child('scope'), spec.scope, ['Cluster', 'Namespaced']));
  errs.push(...schemaPresence(spec, o, p));
  if (spec.preserveUnknownFields && specHasDefaults(spec)) {
    errs.push(
      fieldErrors.invalid(
        p.child('preserveUnknownFields'),
        true,
        'must be false in order to use defaults in the schema',
      ),
    );
  }
  for (const v of spec.versions) {
    const vp = p.child('versions').index(v.index);
    const bad = isDNS1035Label(v.name);
    if (bad.length > 0) errs.push(fieldErrors.invalid(vp.child('name'), v.name, bad.join(',')));
    errs.push(...validateVersion(spec, v, o, vp));
  }
  errs.push(...versionListErrors(spec, versionsJson, p));
  errs.push(...validateRequiredNames(spec.names, p.child('names')));
  errs.push(...validateNames(spec.names, p.child('names')));
  const anyStatus =
    hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
  errs.push(...validateSchemaHolder(spec.validation, anyStatus, o, p.child('validation')));
  errs.push(...validateSubresources(spec.subresources, p.child('subresources')));
  spec.columns.forEach((c, i) => {
    errs.push(...validateColumn(c, p.child('additionalPrinterColumns').index(i)));
  });
  const strategy = text(spec.conversion?.strategy);
  if (spec.conversion && strategy !== 'None' && spec.preserveUnknownFields) {
    errs.push(
      fieldErrors.invalid(
        p.child('conversion').child('strategy'),
        strategy,
        'must be None if spec.preserveUnknownFields is true',
      ),
    );
  }
  errs.push(...validateConversion(spec.conversion, o, p.child('conversion')));
  return errs;
}

function hasDefaultsIn(s: unknown): boolean {
  if (Array.isArray(s)) return s.some(hasDefaultsIn);
  if (!isJsonObject(s)) return false;
  if (s.default !== undefined && s.default !== null) return true;
  return Object.entries(s).some(
    ([k, v]) => k !== 'default' && k !== 'enum' && k !== 'example' && hasDefaultsIn(v),
  );
}

function specHasDefaults(spec: InternalSpec): boolean {
  return [spec.validation, ...spec.versions.map((v) => v.schema)].some((h) =>
    hasDefaultsIn(h?.openAPIV3Schema),
  );
}

const REVIEW_VERSIONS = ['v1', 'v1beta1'];

function validateReviewVersions(
  versions: unknown,
  requireRecognized: boolean,
  p: FieldPath,
): FieldError[] {
  const list = Array.isArray(versions) ? versions : [];
  if (list.length === 0) return [fieldErrors.required(p)];
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  let recognized = false;
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldErrors.invalid(p.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(text(v))) errs.push(fieldErrors.invalid(p.index(i), v, msg));
    if (REVIEW_VERSIONS.includes(text(v))) recognized = true;
  });
  if (requireRecognized && !recognized) {
    errs.push(
      fieldErrors.invalid(p, list, `must include at least one of ${REVIEW_VERSIONS.join(', ')}`),
    );
  }
  return errs;
}

function validateConversion(
  conversion: JsonObject | undefined,
  o: SpecCheckOptions,
  p: FieldPath,
): FieldError[] {
  if (!conversion) return [];
  const strategy = text(conversion.strategy);
  const errs = enumString(p.child('strategy'), strategy, ['None', 'Webhook']);
  const client = conversion.webhookClientConfig;
  if (strategy === 'Webhook') {
    errs.push(...validateClientConfig(client, p.child('webhookClientConfig')));
    errs.push(
      ...validateReviewVersions(
        conversion.conversionReviewVersions,
        o.requireRecognizedConversionReviewVersion,
        p.child('conversionReviewVersions'),
      ),
    );
    return errs;
  }
  if (client !== undefined && client !== null) {
    errs.push(
      fieldErrors.forbidden(
        p.child('webhookClientConfig'),
        'should not be set when strategy is not set to Webhook',
      ),
    );
  }
  const review = conversion.conversionReviewVersions;
  if (Array.isArray(review) && review.length > 0) {
    errs.push(
      fieldErrors.forbidden(
        p.child('conversionReviewVersions'),
        'should not be set when strategy is not set to Webhook',
      ),
    );
  }
  return errs;
}

/** Upstream webhook client config checks, reduced to the url/service choice and their basics. */
function validateClientConfig(client: unknown, p: FieldPath): FieldError[] {
  if (!isJsonObject(client))
    return [fieldErrors.required(p, 'required when strategy is set to Webhook')];
  const hasUrl = typeof client.url === 'string';
  const service = isJsonObject(client.service) ? client.service : undefined;
  if (hasUrl === (service !== undefined))
    return [fieldErrors.required(p, 'exactly one of url or service is required')];
  if (hasUrl) return validateWebhookURL(text(client.url), p.child('url'));
  const sp = p.child('service');
  const errs: FieldError[] = [];
  if (text(service?.name) === '')
    errs.push(fieldErrors.required(sp.child('name'), 'service name is required'));
  if (text(service?.namespace) === '')
    errs.push(fieldErrors.required(sp.child('namespace'), 'service namespace is required'));
  const port = service?.port;
  if (typeof port === 'number' && (port < 1 || port > 65535)) {
    errs.push(
      fieldErrors.invalid(
        sp.child('port'),
        port,
        'port is not valid: must be between 1 and 65535, inclusive',
      ),
    );
  }
  return errs;
}

function validateWebhookURL(url: string, p: FieldPath): FieldError[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (e) {
    return [fieldErrors.invalid(p, url, `url must be a valid URL: ${errorMessage(e)}`)];
  }
  const errs: FieldError[] = [];
  if (parsed.protocol !== 'https:')
    errs.push(fieldErrors.invalid(p, url, "'https' is the only allowed URL scheme"));
  if (parsed.host === '') errs.push(fieldErrors.invalid(p, url, 'host must be specified'));
  if (parsed.username !== '' || parsed.password !== '')
    errs.push(fieldErrors.invalid(p, url, 'user information is not permitted in the URL'));
  if (parsed.hash !== '')
    errs.push(fieldErrors.invalid(p, url, 'fragments are not permitted in the URL'));
  if (parsed.search !== '')
    errs.push(fieldErrors.invalid(p, url, 'query parameters are not permitted in the URL'));
  return errs;
}
