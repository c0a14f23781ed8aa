/**
 * kube-apiserver's `EncryptionConfiguration` (`apiserver.config.k8s.io/v1`, the file named by
 * `--encryption-provider-config`): parsing and validation, with upstream's field paths and
 * messages (`k8s.io/apiserver/pkg/apis/apiserver/validation/validation_encryption.go`), so a file
 * that works on a real cluster works here and a broken one fails with the same words.
 *
 * Differences from upstream, on purpose:
 * - `kms` providers are refused: there is no KMS plugin to call. The refusal is a validation
 *   error at load, so the server does not start with a configuration it cannot honour.
 * - An invalid provider element is shown with its key secrets replaced by `REDACTED` (upstream
 *   prints the whole element, secrets included).
 *
 * @module
 */
import { parse } from 'yaml';

export const ENCRYPTION_CONFIG_API_VERSION = 'apiserver.config.k8s.io/v1';
export const ENCRYPTION_CONFIG_KIND = 'EncryptionConfiguration';

/** One named key; `secret` is the base64 of the key bytes. */
export interface EncryptionKey {
  readonly name: string;
  readonly secret: string;
}

export interface KeysConfiguration {
  readonly keys: readonly EncryptionKey[];
}

/** Exactly one provider per element, as upstream requires. */
export type ProviderConfiguration =
  | { readonly aescbc: KeysConfiguration }
  | { readonly aesgcm: KeysConfiguration }
  | { readonly secretbox: KeysConfiguration }
  | { readonly identity: Record<string, never> };

export type ProviderName = 'aescbc' | 'aesgcm' | 'secretbox' | 'identity';

export interface ResourceConfiguration {
  /** `secrets`, `deployments.apps`, `*.apps`, `*.` (all core), `*.*` (everything). */
  readonly resources: readonly string[];
  /** The first encrypts; every one decrypts. */
  readonly providers: readonly ProviderConfiguration[];
}

export interface EncryptionConfiguration {
  readonly apiVersion: typeof ENCRYPTION_CONFIG_API_VERSION;
  readonly kind: typeof ENCRYPTION_CONFIG_KIND;
  readonly resources: readonly ResourceConfiguration[];
}

/** A group and resource, as `schema.GroupResource`: `''` is the core group. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** A configuration file that does not parse or validate; `message` is upstream's text. */
export class EncryptionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionConfigError';
  }
}

/** `schema.ParseGroupResource`: `deployments.apps` → apps/deployments, `secrets` → core. */
export function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf('.');
  if (dot < 0) return { group: '', resource: text };
  return { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

const AES_KEY_SIZES = [16, 24, 32];
/** XSalsa20-Poly1305 takes a 256-bit key only. */
const SECRETBOX_KEY_SIZES = [32];
const PROVIDER_NAMES: readonly ProviderName[] = ['aescbc', 'aesgcm', 'secretbox', 'identity'];
/** Not stored through REST (upstream's list); encrypting them is refused. */
const NON_REST_RESOURCES = new Set([
  'apiserveripinfo',
  'serviceipallocations',
  'servicenodeportallocations',
]);

/** Field errors in `field.Error` form, joined as `utilerrors.NewAggregate` prints them. */
class FieldErrors {
  readonly list: string[] = [];
  required(path: string, detail: string): void {
    this.list.push(`${path}: Required value: ${detail}`);
  }
  invalid(path: string, value: unknown, detail: string): void {
    // `field.Invalid` prints strings quoted and anything else as JSON.
    this.list.push(`${path}: Invalid value: ${JSON.stringify(value)}: ${detail}`);
  }
  toString(): string {
    return this.list.length === 1 ? this.list[0]! : `[${this.list.join(', ')}]`;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses and validates a configuration file's text (YAML or JSON). `source` names it in
 * messages. Throws {@link EncryptionConfigError}.
 *
 * @example
 * ```ts
 * const config = parseEncryptionConfiguration(await readFile(path, 'utf8'), path);
 * ```
 */
export function parseEncryptionConfiguration(
  text: string,
  source = 'config',
): EncryptionConfiguration {
  if (text.trim() === '') {
    throw new EncryptionConfigError(`encryption provider configuration file "${source}" is empty`);
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new EncryptionConfigError(`error while parsing file: ${reason}`);
  }
  if (!isRecord(doc)) throw new EncryptionConfigError('error while parsing file: not an object');
  const { apiVersion, kind } = doc;
  if (apiVersion !== ENCRYPTION_CONFIG_API_VERSION || kind !== ENCRYPTION_CONFIG_KIND) {
    // The scheme's decoder: only one kind is registered, in one version.
    throw new EncryptionConfigError(
      `error while parsing file: no kind "${String(kind ?? '')}" is registered for version ` +
        `"${String(apiVersion ?? '')}"; expected apiVersion ${ENCRYPTION_CONFIG_API_VERSION}, ` +
        `kind ${ENCRYPTION_CONFIG_KIND}`,
    );
  }
  const errors = new FieldErrors();
  const resources = readResources(doc.resources, errors);
  if (errors.list.length > 0) {
    throw new EncryptionConfigError(`error while parsing file: ${errors.toString()}`);
  }
  const config: EncryptionConfiguration = {
    apiVersion: ENCRYPTION_CONFIG_API_VERSION,
    kind: ENCRYPTION_CONFIG_KIND,
    resources,
  };
  checkMasking(config);
  return config;
}

function readResources(raw: Json | undefined, errors: FieldErrors): ResourceConfiguration[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.required('resources', 'at least one resources is required');
    return [];
  }
  return raw.map((entry, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    const item = isRecord(entry) ? entry : {};
    const names = Array.isArray(item.resources)
      ? item.resources.filter((n): n is string => typeof n === 'string')
      : [];
    if (names.length === 0) errors.required(r, `at least one ${r} is required`);
    validateResourceOverlap(names, r, errors);
    validateResourceNames(names, r, errors);
    const rawProviders = Array.isArray(item.providers) ? item.providers : [];
    if (rawProviders.length === 0) errors.required(p, `at least one ${p} is required`);
    const providers = rawProviders.flatMap((provider, j) => {
      const parsed = readProvider(provider, `${p}[${j}]`, errors);
      return parsed ? [parsed] : [];
    });
    return { resources: names, providers };
  });
}

/** Upstream's `validateResourceOverlap`: duplicates, and a wildcard masking a sibling. */
function validateResourceOverlap(names: readonly string[], path: string, errors: FieldErrors) {
  if (names.length < 2) return;
  const grs = names.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  grs.forEach((a, i) => {
    grs.forEach((b, j) => {
      if (i === j) return;
      if (a.group === b.group && a.resource === b.resource) {
        duplicate = true;
        return;
      }
      if (a.group === '*' && a.resource === '*') overlap = true;
      else if (a.group === b.group && (a.resource === '*' || b.resource === '*')) overlap = true;
    });
  });
  if (duplicate) {
    errors.invalid(path, names, 'the same resource cannot be specified multiple times');
  }
  if (overlap) {
    errors.invalid(
      path,
      names,
      "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked",
    );
  }
}

/** Upstream's `validateResourceNames`: one message per name, the first rule that fails. */
function validateResourceNames(names: readonly string[], path: string, errors: FieldErrors) {
  names.forEach((name, j) => {
    const at = `${path}[${j}]`;
    const gr = parseGroupResource(name);
    if (name.toLowerCase() !== name) {
      errors.invalid(at, name, 'resource name should not contain capital letters');
    } else if (name === '*') {
      errors.invalid(
        at,
        name,
        "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources",
      );
    } else if (NON_REST_RESOURCES.has(name)) {
      errors.invalid(at, name, 'resources which do not have REST API/s cannot be encrypted');
    } else if (gr.group === 'events.k8s.io') {
      errors.invalid(
        at,
        name,
        "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file",
      );
    } else if (gr.group === 'extensions') {
      errors.invalid(
        at,
        name,
        "'extensions' group has been removed and cannot be used for encryption",
      );
    } else if (gr.group === '*' && gr.resource !== '*') {
      errors.invalid(at, name, 'encrypting the same resource across groups is not supported');
    }
  });
}

function readProvider(
  raw: Json,
  path: string,
  errors: FieldErrors,
): ProviderConfiguration | undefined {
  const item = isRecord(raw) ? raw : {};
  if ('kms' in item) {
    const name = isRecord(item.kms) && typeof item.kms.name === 'string' ? item.kms.name : '';
    errors.invalid(
      `${path}.kms`,
      name,
      'KMS providers are not supported by fleetyard (there is no KMS plugin to call); use aescbc, aesgcm, secretbox or identity',
    );
    return undefined;
  }
  const found = PROVIDER_NAMES.filter((n) => item[n] !== undefined && item[n] !== null);
  if (found.length !== 1) {
    errors.invalid(
      path,
      redacted(item),
      found.length === 0
        ? 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'
        : 'more than one provider specified in a single element, should split into different list elements',
    );
    return undefined;
  }
  const name = found[0]!;
  if (name === 'identity') return { identity: {} };
  const body = item[name];
  const keysPath = `${path}.${name}.keys`;
  const keys = readKeys(isRecord(body) ? body.keys : undefined, keysPath, errors, name);
  if (name === 'aescbc') return { aescbc: { keys } };
  if (name === 'aesgcm') return { aesgcm: { keys } };
  return { secretbox: { keys } };
}

function readKeys(
  raw: Json | undefined,
  path: string,
  errors: FieldErrors,
  provider: Exclude<ProviderName, 'identity'>,
): EncryptionKey[] {
  if (!Array.isArray(raw) || raw.length === 0) {
    errors.required(path, 'at least one keys is required');
    return [];
  }
  const sizes = provider === 'secretbox' ? SECRETBOX_KEY_SIZES : AES_KEY_SIZES;
  return raw.map((entry, i) => {
    const at = `${path}[${i}]`;
    const item = isRecord(entry) ? entry : {};
    const name = typeof item.name === 'string' ? item.name : '';
    const secret = typeof item.secret === 'string' ? item.secret : '';
    if (name === '') errors.required(`${at}.name`, 'name is a mandatory field for a key');
    if (secret === '') {
      errors.required(`${at}.secret`, 'secret is a mandatory field for a key');
      return { name, secret };
    }
    const bytes = decodeKeySecret(secret);
    if (bytes === undefined) {
      errors.invalid(`${at}.secret`, 'REDACTED', 'secrets must be base64 encoded');
    } else if (!sizes.includes(bytes.length)) {
      errors.invalid(
        `${at}.secret`,
        'REDACTED',
        `secret is not of the expected length, got ${bytes.length}, expected one of [${sizes.join(' ')}]`,
      );
    }
    return { name, secret };
  });
}

/**
 * Go's `base64.StdEncoding.DecodeString`: padded standard alphabet, line breaks ignored;
 * anything else is an error (Node's decoder would silently skip bad characters).
 */
export function decodeKeySecret(secret: string): Buffer | undefined {
  const text = secret.replace(/[\r\n]/g, '');
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

/** A provider element for an error message, its key secrets hidden. */
function redacted(value: Json): Json {
  if (Array.isArray(value)) return value.map(redacted);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === 'secret' ? 'REDACTED' : redacted(v)]),
  );
}

/** How a group/resource reads in upstream's messages (`*.` for every core resource). */
export function groupResourceText(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/**
 * Upstream checks at load (config.go, not validation) that no resource follows a `*.group` or
 * `*.*` rule of an earlier element, which would make the later rule dead.
 */
function checkMasking(config: EncryptionConfiguration): void {
  const seen = new Set<string>();
  for (const entry of config.resources) {
    for (const name of entry.resources) {
      const gr = parseGroupResource(name);
      for (const wider of [
        { group: gr.group, resource: '*' },
        { group: '*', resource: '*' },
      ]) {
        if (seen.has(`${wider.group}/${wider.resource}`)) {
          throw new EncryptionConfigError(
            `resource "${groupResourceText(gr)}" is masked by earlier rule "${groupResourceText(wider)}"`,
          );
        }
      }
    }
    // Only rules of earlier elements mask: within one element the overlap check applies.
    for (const name of entry.resources) {
      const gr = parseGroupResource(name);
      seen.add(`${gr.group}/${gr.resource}`);
    }
  }
}
