/**
 * storage.k8s.io/v1 CSI kinds: CSIDrivers, CSINodes, VolumeAttachments (`/status`) and
 * CSIStorageCapacities (namespaced), with upstream's defaults (`SetDefaults_CSIDriver`) and
 * validation (`ValidateCSIDriver`, `ValidateCSINode`, `ValidateVolumeAttachment` + `V1`,
 * `ValidateCSIStorageCapacity`) and their immutable fields. Kinds only: the attach/detach
 * controller that writes VolumeAttachments, and the CSINode/CSIDriver objects of the
 * simulated drivers, are later steps.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import { validateLabelSelectorObject } from '../labels/selector.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { isQualifiedName } from '../validation/label-names.js';
import { byteLength, FIELD_IMMUTABLE_ERROR_MSG } from '../validation/messages.js';
import { validateNonnegativeField } from '../validation/numbers.js';
import { compareQuantities, mustParseQuantity } from '../validation/quantity.js';
import { immutable, readSelector, SPEC, semanticEqual, withBuiltinMetadata } from './common.js';
import { getArr, getNum, getObj, getStr, type JsonObject, objects, setDefault } from './json.js';
import { quantityAt } from './resources-validation.js';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'];
/** Upstream `csiNodeIDMaxLength`. */
const NODE_ID_MAX_LENGTH = 192;
/** Upstream `maxAttachedVolumeMetadataSize` (256 KiB) and `maxVolumeErrorMessageSize`. */
const MAX_ATTACHMENT_METADATA = 256 * 1024;
const MAX_ERROR_MESSAGE = 1024;
/** Token requests: at least 10 minutes, at most 2^32 seconds. */
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

/** Upstream `ValidateCSIDriverName`. */
export function validateCSIDriverName(name: string, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (name === '') errs.push(fieldErrors.required(p, ''));
  if (name.length > 63) errs.push(fieldErrors.tooLong(p, 63));
  for (const m of isDNS1123Subdomain(name.toLowerCase()))
    errs.push(fieldErrors.invalid(p, name, m));
  return errs;
}

/** Upstream `validateTokenRequests`. */
function validateTokenRequests(requests: JsonObject[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const audiences = new Set<string>();
  requests.forEach((r, i) => {
    const audience = getStr(r, 'audience') ?? '';
    if (audiences.has(audience)) {
      errs.push(fieldErrors.duplicate(p.index(i).child('audience'), audience));
      return;
    }
    audiences.add(audience);
    const seconds = getNum(r, 'expirationSeconds');
    if (seconds === undefined) return;
    const sp = p.index(i).child('expirationSeconds');
    if (seconds < MIN_TOKEN_SECONDS)
      errs.push(
        fieldErrors.invalid(sp, seconds, 'may not specify a duration less than 10 minutes'),
      );
    if (seconds > MAX_TOKEN_SECONDS)
      errs.push(
        fieldErrors.invalid(sp, seconds, 'may not specify a duration larger than 2^32 seconds'),
      );
  });
  return errs;
}

/** Upstream `ValidateCSIDriver` (after defaulting, so the booleans are set). */
function validateCSIDriver(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs = validateCSIDriverName(obj.metadata?.name ?? '', path('name'));
  const policy = spec.fsGroupPolicy;
  if (typeof policy !== 'string' || !FS_GROUP_POLICIES.includes(policy))
    errs.push(
      fieldErrors.notSupported(SPEC.child('fsGroupPolicy'), policy ?? null, FS_GROUP_POLICIES),
    );
  for (const mode of getArr(spec, 'volumeLifecycleModes') ?? []) {
    if (typeof mode !== 'string' || !LIFECYCLE_MODES.includes(mode))
      errs.push(
        fieldErrors.notSupported(SPEC.child('volumeLifecycleModes'), mode, LIFECYCLE_MODES),
      );
  }
  errs.push(...validateTokenRequests(objects(spec, 'tokenRequests'), SPEC.child('tokenRequests')));
  return errs;
}

/** storage.k8s.io/v1 `csidrivers` (cluster-scoped). */
export const csiDriverResource: ResourceDefinition = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIDriver',
  listKind: 'CSIDriverList',
  plural: 'csidrivers',
  singular: 'csidriver',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'spec',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      // Upstream `SetDefaults_CSIDriver` (SELinuxMountReadWriteOncePod is on in v1.33).
      const spec = getObj(obj, 'spec');
      if (spec === undefined) return;
      setDefault(spec, 'attachRequired', true);
      setDefault(spec, 'podInfoOnMount', false);
      setDefault(spec, 'storageCapacity', false);
      setDefault(spec, 'fsGroupPolicy', 'ReadWriteOnceWithFSType');
      setDefault(spec, 'requiresRepublish', false);
      setDefault(spec, 'seLinuxMount', false);
      if ((getArr(spec, 'volumeLifecycleModes') ?? []).length === 0)
        spec.volumeLifecycleModes = ['Persistent'];
    },
    validate: validateCSIDriver,
    validateUpdate(obj, old) {
      const spec = getObj(obj, 'spec');
      const prev = getObj(old, 'spec');
      return [
        ...immutable(spec?.attachRequired, prev?.attachRequired, SPEC.child('attachRequired')),
        ...immutable(
          spec?.volumeLifecycleModes,
          prev?.volumeLifecycleModes,
          SPEC.child('volumeLifecycleModes'),
        ),
      ];
    },
  }),
};

/** Upstream `validateCSINodeDriver`'s topology-key checks. */
function validateTopologyKeys(d: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const keys = new Set<string>();
  const topologyKeys = getArr(d, 'topologyKeys') ?? [];
  for (const k of topologyKeys) {
    const key = typeof k === 'string' ? k : '';
    if (key === '') errs.push(fieldErrors.required(p, key));
    if (keys.has(key)) errs.push(fieldErrors.duplicate(p, key));
    keys.add(key);
    for (const m of isQualifiedName(key)) errs.push(fieldErrors.invalid(p, topologyKeys, m));
  }
  return errs;
}

/** Upstream `validateCSINodeDriver`, without the duplicate-name check. */
function validateCSINodeDriver(d: JsonObject, p: FieldPath): FieldError[] {
  const errs = validateCSIDriverName(getStr(d, 'name') ?? '', p.child('name'));
  const nodeID = getStr(d, 'nodeID') ?? '';
  if (nodeID === '') errs.push(fieldErrors.required(p.child('nodeID'), ''));
  if (nodeID.length > NODE_ID_MAX_LENGTH) {
    const detail = `must be ${NODE_ID_MAX_LENGTH} characters or less`;
    errs.push(fieldErrors.invalid(p.child('nodeID'), nodeID, detail));
  }
  const count = getNum(getObj(d, 'allocatable'), 'count');
  if (count !== undefined)
    errs.push(...validateNonnegativeField(count, p.child('allocatable', 'count')));
  errs.push(...validateTopologyKeys(d, p));
  return errs;
}

/** Upstream `ValidateCSINode`: each driver, and each driver name once. */
function validateCSINode(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(getObj(obj, 'spec'), 'drivers').forEach((d, i) => {
    const p = SPEC.child('drivers').index(i);
    const name = getStr(d, 'name') ?? '';
    errs.push(...validateCSINodeDriver(d, p));
    if (names.has(name)) errs.push(fieldErrors.duplicate(p.child('name'), name));
    names.add(name);
  });
  return errs;
}

/** Upstream `ValidateCSINodeUpdate`: a driver keeps its node ID, topology keys and allocatable. */
function validateCSINodeUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const next = objects(getObj(obj, 'spec'), 'drivers');
  for (const prev of objects(getObj(old, 'spec'), 'drivers')) {
    const i = next.findIndex((d) => d.name === prev.name);
    if (i < 0) continue;
    const p = SPEC.child('drivers').index(i);
    for (const key of ['nodeID', 'topologyKeys', 'allocatable']) {
      errs.push(...immutable(next[i]?.[key], prev[key], p.child(key)));
    }
  }
  return errs;
}

/** storage.k8s.io/v1 `csinodes` (cluster-scoped, named after their node). */
export const csiNodeResource: ResourceDefinition = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSINode',
  listKind: 'CSINodeList',
  plural: 'csinodes',
  singular: 'csinode',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    validate: validateCSINode,
    validateUpdate: validateCSINodeUpdate,
  }),
};

/** Upstream `validateVolumeAttachmentSource`. */
function validateSource(source: JsonObject, p: FieldPath): FieldError[] {
  const pv = source.persistentVolumeName;
  const inline = source.inlineVolumeSpec;
  const hasPV = typeof pv === 'string';
  const hasInline = inline !== undefined && inline !== null;
  const exactlyOne = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!hasPV && !hasInline) return [fieldErrors.required(p, exactlyOne)];
  if (hasPV && hasInline) return [fieldErrors.forbidden(p, exactlyOne)];
  if (!hasPV) return [];
  if (pv === '')
    return [
      fieldErrors.required(
        p.child('persistentVolumeName'),
        'must specify non empty persistentVolumeName',
      ),
    ];
  return isDNS1123Subdomain(pv).map((m) =>
    fieldErrors.invalid(p.child('persistentVolumeName'), pv, m),
  );
}

/** Upstream `validateVolumeAttachmentStatus`. */
function validateAttachmentStatus(obj: KubeObject): FieldError[] {
  const status = getObj(obj, 'status') ?? {};
  const p = path('status');
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(getObj(status, 'attachmentMetadata') ?? {}))
    size += byteLength(k) + (typeof v === 'string' ? byteLength(v) : 0);
  if (size > MAX_ATTACHMENT_METADATA)
    errs.push(fieldErrors.tooLong(p.child('attachmentMetadata'), MAX_ATTACHMENT_METADATA));
  for (const key of ['attachError', 'detachError']) {
    const message = getStr(getObj(status, key), 'message') ?? '';
    if (message.length > MAX_ERROR_MESSAGE)
      errs.push(fieldErrors.tooLong(p.child(key, 'message'), MAX_ERROR_MESSAGE));
  }
  return errs;
}

/** Upstream `ValidateVolumeAttachment` and `ValidateVolumeAttachmentV1`. */
function validateVolumeAttachment(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const attacher = getStr(spec, 'attacher') ?? '';
  const nodeName = getStr(spec, 'nodeName') ?? '';
  const errs: FieldError[] = [];
  if (attacher === '') errs.push(fieldErrors.required(SPEC.child('attacher'), ''));
  errs.push(...validateSource(getObj(spec, 'source') ?? {}, SPEC.child('source')));
  for (const m of isDNS1123Subdomain(nodeName))
    errs.push(fieldErrors.invalid(SPEC.child('nodeName'), nodeName, m));
  errs.push(...validateAttachmentStatus(obj));
  if (attacher !== '') errs.push(...validateCSIDriverName(attacher, SPEC.child('attacher')));
  return errs;
}

/** storage.k8s.io/v1 `volumeattachments` (cluster-scoped, `/status`; the spec never changes). */
export const volumeAttachmentResource: ResourceDefinition = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'VolumeAttachment',
  listKind: 'VolumeAttachmentList',
  plural: 'volumeattachments',
  singular: 'volumeattachment',
  namespaced: false,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    prepareForCreate(obj) {
      // `attached` is not omitempty: a fresh attachment reads `status: {attached: false}`.
      obj.status = { attached: false };
    },
    validate: validateVolumeAttachment,
    validateUpdate(obj, old) {
      if (semanticEqual(obj.spec, old.spec)) return [];
      return [fieldErrors.invalid(SPEC, obj.spec ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
    },
    validateStatusUpdate: validateAttachmentStatus,
  }),
};

/** Upstream `ValidateNonnegativeQuantity`. */
function nonNegativeQuantity(v: unknown, p: FieldPath): FieldError[] {
  if (v === undefined || v === null) return [];
  const { q, errs } = quantityAt(v, p);
  if (q !== undefined && compareQuantities(q, mustParseQuantity(0)) < 0)
    errs.push(fieldErrors.invalid(p, v, 'must be greater than or equal to 0'));
  return errs;
}

/** Upstream `ValidateCSIStorageCapacity`. */
function validateCapacity(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (obj.nodeTopology !== undefined && obj.nodeTopology !== null) {
    const { sel, errs: shape } = readSelector(obj.nodeTopology, path('nodeTopology'));
    errs.push(
      ...(sel === undefined ? shape : validateLabelSelectorObject(sel, path('nodeTopology'))),
    );
  }
  const className = getStr(obj, 'storageClassName') ?? '';
  for (const m of isDNS1123Subdomain(className))
    errs.push(fieldErrors.invalid(path('storageClassName'), className, m));
  errs.push(...nonNegativeQuantity(obj.capacity, path('capacity')));
  errs.push(...nonNegativeQuantity(obj.maximumVolumeSize, path('maximumVolumeSize')));
  return errs;
}

/** storage.k8s.io/v1 `csistoragecapacities` (namespaced). */
export const csiStorageCapacityResource: ResourceDefinition = {
  group: 'storage.k8s.io',
  version: 'v1',
  kind: 'CSIStorageCapacity',
  listKind: 'CSIStorageCapacityList',
  plural: 'csistoragecapacities',
  singular: 'csistoragecapacity',
  namespaced: true,
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    validate: validateCapacity,
    validateUpdate(obj, old) {
      const errs: FieldError[] = [];
      if (!semanticEqual(obj.nodeTopology, old.nodeTopology))
        errs.push(
          fieldErrors.invalid(
            path('nodeTopology'),
            obj.nodeTopology ?? null,
            FIELD_IMMUTABLE_ERROR_MSG,
          ),
        );
      if (obj.storageClassName !== old.storageClassName)
        errs.push(
          fieldErrors.invalid(
            path('storageClassName'),
            obj.storageClassName ?? null,
            FIELD_IMMUTABLE_ERROR_MSG,
          ),
        );
      return errs;
    },
  }),
};
