/**
 * Upstream pod-spec defaulting (`pkg/apis/core/v1/defaults.go` plus the declarative
 * `+default` markers), shared by Pods and by the pod templates of Deployments, ReplicaSets and
 * StatefulSets: what `kubectl get -o yaml` shows that the user did not write.
 *
 * Every function here is idempotent and never overwrites a value of the wrong type.
 *
 * @module
 */
import { canonicalQuantity } from '../validation/quantity.js';
import { defaultPullPolicy } from './image.js';
import {
  ensureObj,
  getNum,
  getObj,
  getStr,
  isJsonObject,
  type JsonObject,
  objects,
  setDefault,
  setDefaultNonZero,
  setDefaultStr,
} from './json.js';

/** Upstream `DefaultTerminationGracePeriodSeconds`. */
export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** Upstream `SecretVolumeSourceDefaultMode` and friends: 0644. */
const DEFAULT_FILE_MODE = 0o644;

/** Every volume source field; a volume with none of them becomes an `emptyDir`. */
const VOLUME_SOURCES = [
  'hostPath',
  'emptyDir',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'persistentVolumeClaim',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'downwardAPI',
  'fc',
  'azureFile',
  'configMap',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'projected',
  'portworxVolume',
  'scaleIO',
  'storageos',
  'csi',
  'ephemeral',
  'image',
] as const;

/** Upstream `SetDefaults_ResourceList`: quantities canonical, rounded up to milli-units. */
export function defaultResourceList(list: JsonObject | undefined): void {
  if (list === undefined) return;
  for (const [k, v] of Object.entries(list)) {
    const c = canonicalQuantity(v, true);
    if (c !== undefined) list[k] = c;
  }
}

/** `resources` of a container (always present, `{}`, as Go serialises it). */
function defaultResources(container: JsonObject): void {
  const res = ensureObj(container, 'resources');
  if (res === undefined) return;
  defaultResourceList(getObj(res, 'limits'));
  defaultResourceList(getObj(res, 'requests'));
}

/** Upstream `SetDefaults_HTTPGetAction` and the GRPC `service` marker, for one handler. */
function defaultHandler(handler: JsonObject | undefined): void {
  if (handler === undefined) return;
  const http = getObj(handler, 'httpGet');
  if (http !== undefined) {
    setDefaultStr(http, 'path', '/');
    setDefaultStr(http, 'scheme', 'HTTP');
  }
  const grpc = getObj(handler, 'grpc');
  if (grpc !== undefined) setDefault(grpc, 'service', '');
}

/** Upstream `SetDefaults_Probe`. */
function defaultProbe(probe: JsonObject | undefined): void {
  if (probe === undefined) return;
  setDefaultNonZero(probe, 'timeoutSeconds', 1);
  setDefaultNonZero(probe, 'periodSeconds', 10);
  setDefaultNonZero(probe, 'successThreshold', 1);
  setDefaultNonZero(probe, 'failureThreshold', 3);
  defaultHandler(probe);
}

/** Upstream `SetDefaults_ObjectFieldSelector`. */
function defaultFieldRef(holder: JsonObject | undefined): void {
  const ref = getObj(holder, 'fieldRef');
  if (ref !== undefined) setDefaultStr(ref, 'apiVersion', 'v1');
}

/** Upstream `SetDefaults_Container` and everything nested in a container. */
export function defaultContainer(c: JsonObject): void {
  setDefaultStr(c, 'imagePullPolicy', defaultPullPolicy(getStr(c, 'image') ?? ''));
  setDefaultStr(c, 'terminationMessagePath', '/dev/termination-log');
  setDefaultStr(c, 'terminationMessagePolicy', 'File');
  for (const port of objects(c, 'ports')) setDefaultStr(port, 'protocol', 'TCP');
  defaultResources(c);
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'])
    defaultProbe(getObj(c, probe));
  const lifecycle = getObj(c, 'lifecycle');
  defaultHandler(getObj(lifecycle, 'postStart'));
  defaultHandler(getObj(lifecycle, 'preStop'));
  for (const env of objects(c, 'env')) defaultFieldRef(getObj(env, 'valueFrom'));
}

function defaultDownwardAPIItems(source: JsonObject): void {
  for (const item of objects(source, 'items')) defaultFieldRef(item);
}

/** Upstream `SetDefaults_PersistentVolumeClaimSpec` (+ resource lists). */
export function defaultPVCSpec(spec: JsonObject | undefined): void {
  if (spec === undefined) return;
  setDefault(spec, 'volumeMode', 'Filesystem');
  const res = getObj(spec, 'resources');
  defaultResourceList(getObj(res, 'requests'));
  defaultResourceList(getObj(res, 'limits'));
}

function defaultProjected(projected: JsonObject): void {
  setDefault(projected, 'defaultMode', DEFAULT_FILE_MODE);
  for (const source of objects(projected, 'sources')) {
    const token = getObj(source, 'serviceAccountToken');
    if (token !== undefined) setDefault(token, 'expirationSeconds', 3600);
    const downward = getObj(source, 'downwardAPI');
    if (downward !== undefined) defaultDownwardAPIItems(downward);
  }
}

/** Upstream `SetDefaults_Volume` and the per-source defaults. */
export function defaultVolume(v: JsonObject): void {
  if (!VOLUME_SOURCES.some((k) => v[k] !== undefined && v[k] !== null)) v.emptyDir = {};
  for (const key of ['secret', 'configMap', 'downwardAPI'] as const) {
    const source = getObj(v, key);
    if (source !== undefined) setDefault(source, 'defaultMode', DEFAULT_FILE_MODE);
  }
  const downward = getObj(v, 'downwardAPI');
  if (downward !== undefined) defaultDownwardAPIItems(downward);
  const projected = getObj(v, 'projected');
  if (projected !== undefined) defaultProjected(projected);
  const hostPath = getObj(v, 'hostPath');
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
  const claim = getObj(getObj(v, 'ephemeral'), 'volumeClaimTemplate');
  defaultPVCSpec(getObj(claim, 'spec'));
}

/**
 * Upstream `SetDefaults_PodSpec` with its nested defaults: applied to Pods and to pod
 * templates alike.
 */
export function defaultPodSpec(spec: JsonObject): void {
  setDefaultStr(spec, 'dnsPolicy', 'ClusterFirst');
  setDefaultStr(spec, 'restartPolicy', 'Always');
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS);
  setDefaultStr(spec, 'schedulerName', 'default-scheduler');
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of objects(spec, key)) defaultContainer(c);
  }
  for (const v of objects(spec, 'volumes')) defaultVolume(v);
  defaultResourceList(getObj(spec, 'overhead'));
}

/** Requests default to limits for every resource that has only a limit. */
function defaultRequestsFromLimits(c: JsonObject): void {
  const res = getObj(c, 'resources');
  const limits = getObj(res, 'limits');
  if (res === undefined || limits === undefined) return;
  const requests = ensureObj(res, 'requests');
  if (requests === undefined) return;
  for (const [k, v] of Object.entries(limits)) setDefault(requests, k, v);
}

/** With host networking every container port is also a host port. */
function defaultHostNetworkPorts(spec: JsonObject): void {
  if (spec.hostNetwork !== true) return;
  for (const key of ['containers', 'initContainers']) {
    for (const c of objects(spec, key)) {
      for (const port of objects(c, 'ports'))
        setDefaultNonZero(port, 'hostPort', getNum(port, 'containerPort') ?? 0);
    }
  }
}

/** The v1 conversion keeps the deprecated `serviceAccount` and `serviceAccountName` in step. */
function mirrorServiceAccount(spec: JsonObject): void {
  const saName = getStr(spec, 'serviceAccountName') ?? '';
  const sa = getStr(spec, 'serviceAccount') ?? '';
  if (saName === '' && sa !== '') spec.serviceAccountName = sa;
  else if (saName !== '') spec.serviceAccount = saName;
}

/**
 * Upstream `SetDefaults_Pod`: only for Pod objects, never for templates (upstream keeps these
 * out of templates so that controllers' template hashes stay stable).
 */
export function defaultPodOnly(spec: JsonObject): void {
  for (const key of ['containers', 'initContainers']) {
    for (const c of objects(spec, key)) defaultRequestsFromLimits(c);
  }
  setDefault(spec, 'enableServiceLinks', true);
  defaultHostNetworkPorts(spec);
  mirrorServiceAccount(spec);
}

/** Whether `v` is a JSON object holding a `spec` object (for template accessors). */
export function templateSpec(template: unknown): JsonObject | undefined {
  return isJsonObject(template) ? getObj(template, 'spec') : undefined;
}

/** Applies {@link defaultPodSpec} to `spec.template.spec` of a workload, creating it if unset. */
export function defaultTemplateOf(workloadSpec: JsonObject): void {
  const template = ensureObj(workloadSpec, 'template');
  if (template === undefined) return;
  const spec = ensureObj(template, 'spec');
  if (spec !== undefined) defaultPodSpec(spec);
}
