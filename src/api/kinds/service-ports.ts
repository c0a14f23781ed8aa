/**
 * Service port rules (upstream `validateServicePort` and the port checks of
 * `ValidateService`): names, numbers, protocols, target ports, node ports and duplicates.
 *
 * @module
 */
import { type FieldError, fieldErrors } from '../field-error.js';
import { isDNS1123Label } from '../validation/dns.js';
import { isQualifiedName } from '../validation/label-names.js';
import { isValidPortNum } from '../validation/numbers.js';
import { SPEC } from './common.js';
import { requiredOneOf, validatePortNumOrName } from './container-validation.js';
import { getNum, getStr, type JsonObject, objects } from './json.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

function validateServicePort(
  port: JsonObject,
  requireName: boolean,
  names: Set<string>,
  index: number,
): FieldError[] {
  const p = SPEC.child('ports').index(index);
  const errs: FieldError[] = [];
  const name = getStr(port, 'name') ?? '';
  if (requireName && name === '') {
    errs.push(fieldErrors.required(p.child('name'), ''));
  } else if (name !== '') {
    for (const msg of isDNS1123Label(name))
      errs.push(fieldErrors.invalid(p.child('name'), name, msg));
    if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    else names.add(name);
  }
  const num = getNum(port, 'port') ?? 0;
  for (const msg of isValidPortNum(num)) errs.push(fieldErrors.invalid(p.child('port'), num, msg));
  errs.push(...requiredOneOf(getStr(port, 'protocol') ?? '', PROTOCOLS, p.child('protocol')));
  errs.push(...validatePortNumOrName(port.targetPort, p.child('targetPort')));
  const appProtocol = getStr(port, 'appProtocol');
  if (appProtocol !== undefined) {
    for (const msg of isQualifiedName(appProtocol))
      errs.push(fieldErrors.invalid(p.child('appProtocol'), appProtocol, msg));
  }
  return errs;
}

/** All port rules of a Service spec. */
export function validateServicePorts(spec: JsonObject): FieldError[] {
  const ports = objects(spec, 'ports');
  const names = new Set<string>();
  const errs: FieldError[] = [];
  errs.push(...ports.flatMap((port, i) => validateServicePort(port, ports.length > 1, names, i)));
  const seenNodePorts = new Set<string>();
  const seenPorts = new Set<string>();
  ports.forEach((port, i) => {
    const p = SPEC.child('ports').index(i);
    const protocol = getStr(port, 'protocol') ?? '';
    const nodePort = getNum(port, 'nodePort') ?? 0;
    if (spec.type === 'ClusterIP' && nodePort !== 0) {
      errs.push(
        fieldErrors.forbidden(p.child('nodePort'), "may not be used when `type` is 'ClusterIP'"),
      );
    }
    if (nodePort !== 0) {
      const key = `${protocol}/${nodePort}`;
      if (seenNodePorts.has(key)) errs.push(fieldErrors.duplicate(p.child('nodePort'), nodePort));
      seenNodePorts.add(key);
    }
    const num = getNum(port, 'port') ?? 0;
    const key = `${protocol}/${num}`;
    if (seenPorts.has(key)) errs.push(fieldErrors.duplicate(p, { protocol, port: num }));
    seenPorts.add(key);
  });
  return errs;
}
