/**
 * admissionregistration.k8s.io/v1 ValidatingWebhookConfigurations and
 * MutatingWebhookConfigurations: stored with upstream's defaults and validation
 * (`pkg/apis/admissionregistration/v1/defaults.go`, `validation/validation.go`), so install
 * manifests that carry a webhook (ingress-nginx, cert-manager) apply as on a real cluster.
 * They are called on matching writes by `src/apiserver/admission/webhook/` (docs/webhooks.md).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isQualifiedName } from '../validation/label-names.js';
import { withBuiltinMetadata } from './common.js';
import { getArr, getObj, type JsonObject, objects, setDefault, setDefaultStr } from './json.js';

const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const REVIEW_VERSIONS = ['v1', 'v1beta1'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const REINVOCATION = ['IfNeeded', 'Never'];

/** Upstream `SetDefaults_ValidatingWebhook` / `SetDefaults_MutatingWebhook` and their rules. */
function defaultWebhook(hook: JsonObject, mutating: boolean): void {
  setDefaultStr(hook, 'failurePolicy', 'Fail');
  setDefaultStr(hook, 'matchPolicy', 'Equivalent');
  setDefault(hook, 'namespaceSelector', {});
  setDefault(hook, 'objectSelector', {});
  setDefault(hook, 'timeoutSeconds', 10);
  if (mutating) setDefaultStr(hook, 'reinvocationPolicy', 'Never');
  for (const rule of objects(hook, 'rules')) setDefaultStr(rule, 'scope', '*');
  const service = getObj(getObj(hook, 'clientConfig'), 'service');
  if (service) setDefault(service, 'port', 443);
}

function oneOf(value: unknown, allowed: readonly string[], at: FieldPath): FieldError[] {
  if (value === undefined || value === null) return [fieldErrors.required(at, '')];
  if (typeof value === 'string' && allowed.includes(value)) return [];
  return [fieldErrors.notSupported(at, value, [...allowed])];
}

function validateClientConfig(config: JsonObject | undefined, at: FieldPath): FieldError[] {
  const url = config?.url;
  const service = getObj(config, 'service');
  const hasUrl = typeof url === 'string' && url !== '';
  if (hasUrl === (service !== undefined)) {
    return [fieldErrors.required(at, 'exactly one of url or service is required')];
  }
  if (hasUrl) {
    if (!url.startsWith('https://')) {
      return [fieldErrors.invalid(at.child('url'), url, "'https' is the only allowed URL scheme")];
    }
    return [];
  }
  const errs: FieldError[] = [];
  for (const key of ['name', 'namespace']) {
    if (typeof service?.[key] !== 'string' || service[key] === '') {
      errs.push(fieldErrors.required(at.child('service', key), `service ${key} is required`));
    }
  }
  const port = service?.port;
  if (typeof port === 'number' && (port < 1 || port > 65535)) {
    errs.push(
      fieldErrors.invalid(at.child('service', 'port'), port, 'port is not valid: must be 1-65535'),
    );
  }
  return errs;
}

function validateRule(rule: JsonObject, at: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['operations', 'apiGroups', 'apiVersions', 'resources']) {
    const values = getArr(rule, key);
    if (!values || values.length === 0) errs.push(fieldErrors.required(at.child(key), ''));
  }
  (getArr(rule, 'operations') ?? []).forEach((op, i) => {
    if (typeof op !== 'string' || !OPERATIONS.includes(op)) {
      errs.push(fieldErrors.notSupported(at.child('operations').index(i), op, OPERATIONS));
    }
  });
  if (rule.scope !== undefined) errs.push(...oneOf(rule.scope, SCOPES, at.child('scope')));
  return errs;
}

function validateWebhook(hook: JsonObject, at: FieldPath, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const name = hook.name;
  if (typeof name !== 'string' || name === '')
    errs.push(fieldErrors.required(at.child('name'), ''));
  else {
    for (const msg of isQualifiedName(name))
      errs.push(fieldErrors.invalid(at.child('name'), name, msg));
    // Upstream: "should be a domain with at least three segments separated by dots".
    if (name.split('.').length < 3) {
      errs.push(
        fieldErrors.invalid(
          at.child('name'),
          name,
          'should be a domain with at least three segments separated by dots',
        ),
      );
    }
  }
  objects(hook, 'rules').forEach((r, i) => {
    errs.push(...validateRule(r, at.child('rules').index(i)));
  });
  errs.push(...oneOf(hook.failurePolicy, FAILURE_POLICIES, at.child('failurePolicy')));
  errs.push(...oneOf(hook.matchPolicy, MATCH_POLICIES, at.child('matchPolicy')));
  errs.push(...oneOf(hook.sideEffects, SIDE_EFFECTS, at.child('sideEffects')));
  if (mutating) {
    errs.push(...oneOf(hook.reinvocationPolicy, REINVOCATION, at.child('reinvocationPolicy')));
  }
  const timeout = hook.timeoutSeconds;
  if (typeof timeout === 'number' && (timeout < 1 || timeout > 30)) {
    errs.push(
      fieldErrors.invalid(
        at.child('timeoutSeconds'),
        timeout,
        'the timeout value must be between 1 and 30 seconds',
      ),
    );
  }
  const versions = getArr(hook, 'admissionReviewVersions') ?? [];
  if (versions.length === 0) {
    errs.push(
      fieldErrors.required(
        at.child('admissionReviewVersions'),
        `must specify one of ${REVIEW_VERSIONS.join(', ')}`,
      ),
    );
  } else if (!versions.some((v) => typeof v === 'string' && REVIEW_VERSIONS.includes(v))) {
    errs.push(
      fieldErrors.invalid(
        at.child('admissionReviewVersions'),
        versions,
        `must include at least one of ${REVIEW_VERSIONS.join(', ')}`,
      ),
    );
  }
  errs.push(...validateClientConfig(getObj(hook, 'clientConfig'), at.child('clientConfig')));
  return errs;
}

function validateConfiguration(obj: KubeObject, mutating: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  objects(obj, 'webhooks').forEach((hook, i) => {
    const at = path('webhooks').index(i);
    errs.push(...validateWebhook(hook, at, mutating));
    if (typeof hook.name === 'string' && hook.name !== '') {
      if (seen.has(hook.name)) errs.push(fieldErrors.duplicate(at.child('name'), hook.name));
      seen.add(hook.name);
    }
  });
  return errs;
}

function webhookConfiguration(kind: string, plural: string, mutating: boolean): ResourceDefinition {
  return {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced: false,
    nameValidation: 'dns-subdomain',
    generation: 'all-but-metadata',
    statusSubresource: false,
    strategy: withBuiltinMetadata({
      defaults(obj) {
        for (const hook of objects(obj, 'webhooks')) defaultWebhook(hook, mutating);
      },
      validate: (obj) => validateConfiguration(obj, mutating),
      validateUpdate: (obj) => validateConfiguration(obj, mutating),
    }),
  };
}

/** `validatingwebhookconfigurations` (cluster-scoped). */
export const validatingWebhookConfigurationResource = webhookConfiguration(
  'ValidatingWebhookConfiguration',
  'validatingwebhookconfigurations',
  false,
);

/** `mutatingwebhookconfigurations` (cluster-scoped). */
export const mutatingWebhookConfigurationResource = webhookConfiguration(
  'MutatingWebhookConfiguration',
  'mutatingwebhookconfigurations',
  true,
);
