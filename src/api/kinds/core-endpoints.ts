/**
 * core/v1 Endpoints and ServiceAccounts: small kinds with few rules.
 *
 * Endpoints: port protocols default to TCP; addresses must be IPs, ports named when there are
 * several. ServiceAccounts: metadata only.
 *
 * @module
 */

import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/dns.js';
import { isValidIP } from '../validation/ip.js';
import { isValidPortNum } from '../validation/numbers.js';
import { withBuiltinMetadata } from './common.js';
import { requiredOneOf } from './container-validation.js';
import { nonSpecialIP } from './discovery-endpointslice.js';
import { getNum, getStr, type JsonObject, objects, setDefaultStr } from './json.js';

function validateAddress(addr: JsonObject, p: FieldPath): FieldError[] {
  const ip = getStr(addr, 'ip') ?? '';
  const errs = isValidIP(p.child('ip'), ip);
  // Upstream's validateEpAddress: a valid IP must also not be special (loopback, …).
  if (errs.length === 0) errs.push(...nonSpecialIP(ip, p.child('ip')));
  const hostname = getStr(addr, 'hostname') ?? '';
  if (hostname !== '')
    for (const msg of isDNS1123Label(hostname))
      errs.push(fieldErrors.invalid(p.child('hostname'), hostname, msg));
  const nodeName = getStr(addr, 'nodeName') ?? '';
  if (nodeName !== '')
    for (const msg of isDNS1123Subdomain(nodeName))
      errs.push(fieldErrors.invalid(p.child('nodeName'), nodeName, msg));
  return errs;
}

function validateSubset(subset: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of ['addresses', 'notReadyAddresses']) {
    errs.push(...objects(subset, key).flatMap((a, i) => validateAddress(a, p.child(key).index(i))));
  }
  const ports = objects(subset, 'ports');
  ports.forEach((port, i) => {
    const pp = p.child('ports').index(i);
    const name = getStr(port, 'name') ?? '';
    if (ports.length > 1 && name === '') errs.push(fieldErrors.required(pp.child('name'), ''));
    else if (name !== '')
      for (const msg of isDNS1123Label(name))
        errs.push(fieldErrors.invalid(pp.child('name'), name, msg));
    const num = getNum(port, 'port') ?? 0;
    for (const msg of isValidPortNum(num))
      errs.push(fieldErrors.invalid(pp.child('port'), num, msg));
    errs.push(
      ...requiredOneOf(
        getStr(port, 'protocol') ?? '',
        ['SCTP', 'TCP', 'UDP'],
        pp.child('protocol'),
      ),
    );
  });
  return errs;
}

/** core/v1 `endpoints` (`ep`). */
export const endpointsResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Endpoints',
  listKind: 'EndpointsList',
  plural: 'endpoints',
  singular: 'endpoints',
  namespaced: true,
  shortNames: ['ep'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj: KubeObject) {
      for (const subset of objects(obj, 'subsets')) {
        for (const port of objects(subset, 'ports')) setDefaultStr(port, 'protocol', 'TCP');
      }
    },
    validate(obj: KubeObject) {
      return objects(obj, 'subsets').flatMap((s, i) => validateSubset(s, path('subsets').index(i)));
    },
  }),
};

/** core/v1 `serviceaccounts` (`sa`). */
export const serviceAccountResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  plural: 'serviceaccounts',
  singular: 'serviceaccount',
  namespaced: true,
  shortNames: ['sa'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({}),
};
