/**
 * apiregistration.k8s.io/v1 APIServices (cluster-scoped, `/status`), as kube-aggregator's
 * `ValidateAPIService`: the name is `<version>.<group>` (`v1.` for core), a local APIService
 * (no `service`) has no CA bundle, priorities are in range, a service reference has a
 * namespace, a name and a valid port (443 by default). The API server keeps one local
 * APIService per served group-version (`apiserver/bootstrap/cluster-objects.ts`), as
 * upstream's autoregister controller does; those report `Available` True with reason `Local`.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1035Label, isDNS1123Subdomain } from '../validation/dns.js';
import { isValidPathSegmentName } from '../validation/names.js';
import { isValidPortNum } from '../validation/numbers.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { getNum, getObj, getStr, type JsonObject, setDefault } from './json.js';
import { validateConditions } from './networking-servicecidr.js';

/** The label upstream's autoregister controller puts on the APIServices it manages. */
export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

/** The name an APIService for `group`/`version` must have. */
export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

function validateName(obj: KubeObject, group: string, version: string): FieldError[] {
  const name = obj.metadata?.name ?? '';
  const p = path('metadata', 'name');
  const segment = isValidPathSegmentName(name);
  if (segment.length > 0) return segment.map((m) => fieldErrors.invalid(p, name, m));
  const required = apiServiceName(group, version);
  if (name === required) return [];
  return [
    fieldErrors.invalid(
      p,
      name,
      `must be \`spec.version+"."+spec.group\`: ${JSON.stringify(required)}`,
    ),
  ];
}

/** kube-aggregator `ValidateAPIService`. */
export function validateAPIService(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const group = getStr(spec, 'group') ?? '';
  const version = getStr(spec, 'version') ?? '';
  const errs = validateName(obj, group, version);
  if (group === '' && version !== 'v1')
    errs.push(
      fieldErrors.required(
        SPEC.child('group'),
        'only v1 may have an empty group and it better be legacy kube',
      ),
    );
  if (group !== '')
    errs.push(
      ...isDNS1123Subdomain(group).map((m) => fieldErrors.invalid(SPEC.child('group'), group, m)),
    );
  errs.push(
    ...isDNS1035Label(version).map((m) => fieldErrors.invalid(SPEC.child('version'), version, m)),
  );
  const groupPriority = getNum(spec, 'groupPriorityMinimum') ?? 0;
  if (groupPriority <= 0 || groupPriority > 20000)
    errs.push(
      fieldErrors.invalid(
        SPEC.child('groupPriorityMinimum'),
        groupPriority,
        'must be positive and less than 20000',
      ),
    );
  const versionPriority = getNum(spec, 'versionPriority') ?? 0;
  if (versionPriority <= 0 || versionPriority > 1000)
    errs.push(
      fieldErrors.invalid(
        SPEC.child('versionPriority'),
        versionPriority,
        'must be positive and less than 1000',
      ),
    );
  errs.push(...validateServiceReference(spec));
  return errs;
}

/** The `service`/`caBundle`/`insecureSkipTLSVerify` part of `ValidateAPIService`. */
function validateServiceReference(spec: JsonObject): FieldError[] {
  const errs: FieldError[] = [];
  const caBundle = getStr(spec, 'caBundle') ?? '';
  const insecure = spec.insecureSkipTLSVerify === true;
  const service = getObj(spec, 'service');
  const insecurePath = SPEC.child('insecureSkipTLSVerify');
  if (service === undefined) {
    if (caBundle !== '') {
      const size = `${Buffer.from(caBundle, 'base64').length} bytes`;
      const detail = 'local APIServices may not have a caBundle';
      errs.push(fieldErrors.invalid(SPEC.child('caBundle'), size, detail));
    }
    if (insecure) {
      const detail = 'local APIServices may not have insecureSkipTLSVerify';
      errs.push(fieldErrors.invalid(insecurePath, true, detail));
    }
    return errs;
  }
  for (const key of ['namespace', 'name']) {
    if ((getStr(service, key) ?? '') === '')
      errs.push(fieldErrors.required(SPEC.child('service', key), ''));
  }
  const port = getNum(service, 'port') ?? 0;
  const portErrors = isValidPortNum(port);
  if (portErrors.length > 0) {
    const detail = `port is not valid: ${portErrors.join(', ')}`;
    errs.push(fieldErrors.invalid(SPEC.child('service', 'port'), port, detail));
  }
  if (insecure && caBundle !== '')
    errs.push(fieldErrors.invalid(insecurePath, true, 'may not be true if caBundle is present'));
  return errs;
}

/** apiregistration.k8s.io/v1 `apiservices` (cluster-scoped, `/status`). */
export const apiServiceResource: ResourceDefinition = {
  group: 'apiregistration.k8s.io',
  version: 'v1',
  kind: 'APIService',
  listKind: 'APIServiceList',
  plural: 'apiservices',
  singular: 'apiservice',
  namespaced: false,
  // `v1.` ends with a dot: only the path-segment rules apply; `validate` checks the name.
  nameValidation: 'path-segment',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      // Upstream `SetDefaults_ServiceReference`.
      const service = getObj(getObj(obj, 'spec'), 'service');
      if (service !== undefined) setDefault(service, 'port', 443);
    },
    prepareForCreate(obj) {
      obj.status = {};
    },
    validate: validateAPIService,
    validateStatusUpdate: (obj) =>
      validateConditions(getObj(obj, 'status')?.conditions, path('status', 'conditions')),
  }),
};
