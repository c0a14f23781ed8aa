/**
 * Container validation shared by Pods and pod templates (upstream `validateContainers`,
 * `validateInitContainers`, `validateContainerCommon`, `validateContainerPorts`, probes and
 * lifecycle handlers).
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isDNS1123Label } from '../validation/dns.js';
import { isHTTPHeaderName } from '../validation/formats.js';
import {
  isValidPortName,
  isValidPortNum,
  validateNonnegativeField,
} from '../validation/numbers.js';
import { validateEnv, validateEnvFrom } from './env-validation.js';
import { get, getNum, getObj, getStr, type JsonObject, objects } from './json.js';
import { validateResources } from './resources-validation.js';
import { validateVolumeMounts } from './volume-validation.js';

/** What container checks need from the pod spec around them. */
export interface ContainerContext {
  /** Volumes that passed validation, by name. */
  readonly volumes: ReadonlyMap<string, JsonObject>;
  /** `spec.terminationGracePeriodSeconds`, for sleep actions. */
  readonly gracePeriod: number | undefined;
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];

/** Upstream `ValidatePortNumOrName` for an IntOrString port (absent is the int 0). */
export function validatePortNumOrName(port: unknown, fieldPath: FieldPath): FieldError[] {
  if (typeof port === 'string')
    return isValidPortName(port).map((msg) => fieldErrors.invalid(fieldPath, port, msg));
  const n = typeof port === 'number' ? port : 0;
  return isValidPortNum(n).map((msg) => fieldErrors.invalid(fieldPath, n, msg));
}

function validatePortName(port: JsonObject, names: Set<string>, p: FieldPath): FieldError[] {
  const name = getStr(port, 'name') ?? '';
  if (name === '') return [];
  const msgs = isValidPortName(name);
  if (msgs.length > 0) return msgs.map((msg) => fieldErrors.invalid(p.child('name'), name, msg));
  if (names.has(name)) return [fieldErrors.duplicate(p.child('name'), name)];
  names.add(name);
  return [];
}

function validatePortNumbers(port: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const containerPort = getNum(port, 'containerPort') ?? 0;
  if (containerPort === 0) errs.push(fieldErrors.required(p.child('containerPort'), ''));
  for (const msg of containerPort === 0 ? [] : isValidPortNum(containerPort)) {
    errs.push(fieldErrors.invalid(p.child('containerPort'), containerPort, msg));
  }
  const hostPort = getNum(port, 'hostPort') ?? 0;
  for (const msg of hostPort === 0 ? [] : isValidPortNum(hostPort)) {
    errs.push(fieldErrors.invalid(p.child('hostPort'), hostPort, msg));
  }
  return errs;
}

/** Upstream `validateContainerPorts`. */
export function validateContainerPorts(container: JsonObject, fieldPath: FieldPath): FieldError[] {
  const names = new Set<string>();
  return objects(container, 'ports').flatMap((port, i) => {
    const p = fieldPath.index(i);
    return [
      ...validatePortName(port, names, p),
      ...validatePortNumbers(port, p),
      ...requiredOneOf(getStr(port, 'protocol') ?? '', PROTOCOLS, p.child('protocol')),
    ];
  });
}

/** `Required value` when empty, `Unsupported value` when not one of `supported`. */
export function requiredOneOf(
  value: string,
  supported: readonly string[],
  fieldPath: FieldPath,
): FieldError[] {
  if (value === '') return [fieldErrors.required(fieldPath, '')];
  return supported.includes(value) ? [] : [fieldErrors.notSupported(fieldPath, value, supported)];
}

function validateHTTPGet(http: JsonObject, fieldPath: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if ((getStr(http, 'path') ?? '') === '')
    errs.push(fieldErrors.required(fieldPath.child('path'), ''));
  errs.push(...validatePortNumOrName(get(http, 'port'), fieldPath.child('port')));
  const scheme = getStr(http, 'scheme') ?? '';
  if (scheme !== 'HTTP' && scheme !== 'HTTPS') {
    errs.push(fieldErrors.notSupported(fieldPath.child('scheme'), scheme, ['HTTP', 'HTTPS']));
  }
  for (const header of objects(http, 'httpHeaders')) {
    const name = getStr(header, 'name') ?? '';
    for (const msg of isHTTPHeaderName(name))
      errs.push(fieldErrors.invalid(fieldPath.child('httpHeaders'), name, msg));
  }
  return errs;
}

function validateAction(
  kind: string,
  action: JsonObject,
  ctx: ContainerContext,
  fieldPath: FieldPath,
): FieldError[] {
  switch (kind) {
    case 'exec': {
      const command = action.command;
      const empty = !Array.isArray(command) || command.length === 0;
      return empty ? [fieldErrors.required(fieldPath.child('command'), '')] : [];
    }
    case 'httpGet':
      return validateHTTPGet(action, fieldPath);
    case 'tcpSocket':
      return validatePortNumOrName(get(action, 'port'), fieldPath.child('port'));
    case 'grpc':
      return validatePortNumOrName(getNum(action, 'port') ?? 0, fieldPath.child('port'));
    default: {
      // sleep: 1.33 allows zero (PodLifecycleSleepActionAllowZero is on by default).
      const seconds = getNum(action, 'seconds') ?? 0;
      const grace = ctx.gracePeriod;
      if (grace !== undefined && (seconds < 0 || seconds > grace)) {
        return [
          fieldErrors.invalid(
            fieldPath,
            seconds,
            `must be non-negative and less than terminationGracePeriodSeconds (${grace})`,
          ),
        ];
      }
      return [];
    }
  }
}

/** Upstream `validateHandler`: exactly one action. */
function validateHandler(
  handler: JsonObject,
  kinds: readonly string[],
  ctx: ContainerContext,
  fieldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const kind of kinds) {
    const action = getObj(handler, kind);
    if (action === undefined) continue;
    if (count > 0) {
      errs.push(
        fieldErrors.forbidden(fieldPath.child(kind), 'may not specify more than 1 handler type'),
      );
      continue;
    }
    count++;
    errs.push(...validateAction(kind, action, ctx, fieldPath.child(kind)));
  }
  if (count === 0) errs.push(fieldErrors.required(fieldPath, 'must specify a handler type'));
  return errs;
}

const PROBE_ACTIONS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_ACTIONS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

function validateProbe(
  probe: JsonObject,
  ctx: ContainerContext,
  fieldPath: FieldPath,
): FieldError[] {
  const errs = validateHandler(probe, PROBE_ACTIONS, ctx, fieldPath);
  for (const key of [
    'initialDelaySeconds',
    'timeoutSeconds',
    'periodSeconds',
    'successThreshold',
    'failureThreshold',
  ]) {
    errs.push(...validateNonnegativeField(getNum(probe, key) ?? 0, fieldPath.child(key)));
  }
  const grace = getNum(probe, 'terminationGracePeriodSeconds');
  if (grace !== undefined && grace <= 0) {
    errs.push(
      fieldErrors.invalid(
        fieldPath.child('terminationGracePeriodSeconds'),
        grace,
        'must be greater than 0',
      ),
    );
  }
  return errs;
}

/** Liveness, readiness and startup probes and lifecycle hooks of a container that may have them. */
function validateProbesAndLifecycle(
  c: JsonObject,
  ctx: ContainerContext,
  p: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const lifecycle = getObj(c, 'lifecycle');
  for (const hook of ['postStart', 'preStop']) {
    const h = getObj(lifecycle, hook);
    if (h !== undefined)
      errs.push(...validateHandler(h, LIFECYCLE_ACTIONS, ctx, p.child('lifecycle', hook)));
  }
  for (const key of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const probe = getObj(c, key);
    if (probe === undefined) continue;
    errs.push(...validateProbe(probe, ctx, p.child(key)));
    const success = getNum(probe, 'successThreshold') ?? 0;
    if (key !== 'readinessProbe' && success !== 1) {
      errs.push(fieldErrors.invalid(p.child(key, 'successThreshold'), success, 'must be 1'));
    }
    const grace = getNum(probe, 'terminationGracePeriodSeconds');
    if (key === 'readinessProbe' && grace !== undefined) {
      errs.push(
        fieldErrors.invalid(
          p.child(key, 'terminationGracePeriodSeconds'),
          grace,
          'must not be set for readinessProbes',
        ),
      );
    }
  }
  return errs;
}

/** Upstream `validateContainerCommon`. */
function validateContainerCommon(c: JsonObject, ctx: ContainerContext, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const name = getStr(c, 'name') ?? '';
  if (name === '') errs.push(fieldErrors.required(p.child('name'), ''));
  else
    for (const msg of isDNS1123Label(name))
      errs.push(fieldErrors.invalid(p.child('name'), name, msg));
  if ((getStr(c, 'image') ?? '') === '') errs.push(fieldErrors.required(p.child('image'), ''));
  errs.push(
    ...requiredOneOf(
      getStr(c, 'terminationMessagePolicy') ?? '',
      TERMINATION_MESSAGE_POLICIES,
      p.child('terminationMessagePolicy'),
    ),
  );
  errs.push(...validateContainerPorts(c, p.child('ports')));
  errs.push(...validateEnv(c, p.child('env')));
  errs.push(...validateEnvFrom(c, p.child('envFrom')));
  errs.push(...validateVolumeMounts(c, ctx.volumes, p.child('volumeMounts')));
  errs.push(
    ...requiredOneOf(getStr(c, 'imagePullPolicy') ?? '', PULL_POLICIES, p.child('imagePullPolicy')),
  );
  errs.push(...validateResources(get(c, 'resources'), p.child('resources')));
  return errs;
}

/** Upstream `AccumulateUniqueHostPorts`: a protocol/hostIP/hostPort may be used once. */
export function checkHostPortConflicts(
  containers: readonly JsonObject[],
  fieldPath: FieldPath,
  seen = new Set<string>(),
): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) => {
    objects(c, 'ports').forEach((port, pi) => {
      const hostPort = getNum(port, 'hostPort') ?? 0;
      if (hostPort === 0) return;
      const key = `${getStr(port, 'protocol') ?? ''}/${getStr(port, 'hostIP') ?? ''}/${hostPort}`;
      if (seen.has(key))
        errs.push(
          fieldErrors.duplicate(
            fieldPath.index(ci).child('ports').index(pi).child('hostPort'),
            key,
          ),
        );
      else seen.add(key);
    });
  });
  return errs;
}

/** Upstream `validateContainers` (regular containers). */
export function validateContainers(
  spec: JsonObject,
  ctx: ContainerContext,
  fieldPath: FieldPath,
): FieldError[] {
  const containers = objects(spec, 'containers');
  if (containers.length === 0) return [fieldErrors.required(fieldPath, '')];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const p = fieldPath.index(i);
    errs.push(...validateContainerCommon(c, ctx, p));
    const name = getStr(c, 'name') ?? '';
    if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    else names.add(name);
    errs.push(...validateProbesAndLifecycle(c, ctx, p));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      errs.push(
        fieldErrors.forbidden(p.child('restartPolicy'), 'may not be set for non-init containers'),
      );
    }
  });
  errs.push(...checkHostPortConflicts(containers, fieldPath));
  return errs;
}

const INIT_ONLY_WITHOUT_ALWAYS = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

/** Upstream `validateInitContainers` (sidecars are init containers with `restartPolicy: Always`). */
export function validateInitContainers(
  spec: JsonObject,
  ctx: ContainerContext,
  fieldPath: FieldPath,
): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set(objects(spec, 'containers').map((c) => getStr(c, 'name') ?? ''));
  objects(spec, 'initContainers').forEach((c, i) => {
    const p = fieldPath.index(i);
    errs.push(...validateContainerCommon(c, ctx, p));
    const restartPolicy = c.restartPolicy;
    const always = restartPolicy === 'Always';
    if (restartPolicy !== undefined && restartPolicy !== null && !always) {
      errs.push(fieldErrors.notSupported(p.child('restartPolicy'), restartPolicy, ['Always']));
    }
    const name = getStr(c, 'name') ?? '';
    if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    else if (name !== '') names.add(name);
    // Init containers run one by one, so each is checked for host-port conflicts on its own.
    errs.push(...checkHostPortConflicts([c], fieldPath));
    if (always) {
      errs.push(...validateProbesAndLifecycle(c, ctx, p));
      return;
    }
    for (const key of INIT_ONLY_WITHOUT_ALWAYS) {
      if (c[key] !== undefined && c[key] !== null) {
        errs.push(
          fieldErrors.forbidden(
            p.child(key),
            'may not be set for init containers without restartPolicy=Always',
          ),
        );
      }
    }
  });
  return errs;
}
