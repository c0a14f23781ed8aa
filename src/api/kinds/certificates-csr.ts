/**
 * certificates.k8s.io/v1 CertificateSigningRequests (`csr`, cluster-scoped, `/status`,
 * `/approval`), as upstream's strategies and `validateCertificateSigningRequest`:
 *
 * - create: the requester's identity replaces whatever the client wrote in `username`,
 *   `uid`, `groups` and `extra`, and the status starts empty (no pre-approved requests);
 * - `spec.request` is a PEM `CERTIFICATE REQUEST` whose signature verifies; `signerName` is
 *   required and shaped `example.com/signer-name` (the legacy signer is refused in v1);
 *   `usages` are required, known and unique; `expirationSeconds` is at least 600;
 * - conditions: known statuses, one of each type, Approved and Denied exclusive and only
 *   `True`; an update never removes an Approved, Denied or Failed condition; `/status` may
 *   not add Approved or Denied (that is `/approval`'s) nor change an issued certificate;
 * - the spec never changes after create; the main resource changes only metadata.
 *
 * The requester is the user who makes the create (what `kubectl get csr` shows under
 * REQUESTOR); a create with none known (an in-process test server) is {@link REQUESTER}'s.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors, path } from '../field-error.js';
import type { JsonObject, KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../validation/dns.js';
import { checkCertificateRequest, checkIssuedCertificate } from './certificates-csr-request.js';
import { SPEC, withBuiltinMetadata } from './common.js';
import { getArr, getObj, getStr, objects } from './json.js';

/** The requester of a create whose user is not known: the admin of `fleetyard up`. */
export const REQUESTER = {
  username: 'kubernetes-admin',
  groups: ['system:masters', 'system:authenticated'],
} as const;

const LEGACY_SIGNER = 'kubernetes.io/legacy-unknown';
/** Upstream `allValidUsages`, sorted as `sets.List` sorts them. */
const USAGES = [
  'any',
  'cert sign',
  'client auth',
  'code signing',
  'content commitment',
  'crl sign',
  'data encipherment',
  'decipher only',
  'digital signature',
  'email protection',
  'encipher only',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'key agreement',
  'key encipherment',
  'microsoft sgc',
  'netscape sgc',
  'ocsp signing',
  's/mime',
  'server auth',
  'signing',
  'timestamping',
];
const STATUSES = ['False', 'True', 'Unknown'];
const CONDITIONS = path('status', 'conditions');
/** Upstream `maxSignerNameLength`... the domain part is a DNS subdomain (253). */
const MAX_DOMAIN_LENGTH = 253;

function bytesOf(value: unknown): Buffer {
  return typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
}

/** Upstream `ValidateSignerName`. */
export function validateSignerName(signerName: string): FieldError[] {
  const p = SPEC.child('signerName');
  if (signerName === '') return [fieldErrors.required(p, '')];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [
      fieldErrors.invalid(
        p,
        signerName,
        "must be a fully qualified domain and path of the form 'example.com/signer-name'",
      ),
    ];
  }
  const [domain = '', name = ''] = segments;
  const errs: FieldError[] = [];
  if (domain.length > MAX_DOMAIN_LENGTH) errs.push(fieldErrors.tooLong(p, MAX_DOMAIN_LENGTH));
  const labels = domain.split('.');
  const badLabel = labels.find((l) => isDNS1123Label(l).length > 0);
  if (badLabel !== undefined) {
    for (const m of isDNS1123Label(badLabel))
      errs.push(fieldErrors.invalid(p, domain, `validating label "${badLabel}": ${m}`));
  }
  if (labels.length < 2) {
    errs.push(
      fieldErrors.invalid(
        p,
        domain,
        'should be a domain with at least two segments separated by dots',
      ),
    );
  }
  const badPart = name.split('.').find((l) => isDNS1123Subdomain(l).length > 0);
  if (badPart !== undefined) {
    for (const m of isDNS1123Subdomain(badPart))
      errs.push(fieldErrors.invalid(p, name, `validating component "${badPart}": ${m}`));
  }
  return errs;
}

function validateUsages(spec: JsonObject): FieldError[] {
  const usages = getArr(spec, 'usages') ?? [];
  const p = SPEC.child('usages');
  if (usages.length === 0) return [fieldErrors.required(p, '')];
  const errs: FieldError[] = [];
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (typeof u !== 'string' || !USAGES.includes(u))
      errs.push(fieldErrors.notSupported(p.index(i), u, USAGES));
    if (seen.has(u)) errs.push(fieldErrors.duplicate(p.index(i), u));
    seen.add(u);
  });
  return errs;
}

/** The Approved/Denied rules of one condition, given which of the two came before it. */
function finalConditionErrors(
  type: string,
  status: string,
  p: FieldPath,
  before: { approved: boolean; denied: boolean },
): FieldError[] {
  if (type !== 'Approved' && type !== 'Denied') return [];
  const errs: FieldError[] = [];
  if ((type === 'Approved' && before.denied) || (type === 'Denied' && before.approved)) {
    const detail = 'Approved and Denied conditions are mutually exclusive';
    errs.push(fieldErrors.invalid(p.child('type'), type, detail));
  }
  if (status !== 'True') errs.push(fieldErrors.notSupported(p.child('status'), status, ['True']));
  return errs;
}

/** Upstream `validateConditions`. */
export function validateCSRConditions(obj: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const before = { approved: false, denied: false };
  objects(getObj(obj, 'status'), 'conditions').forEach((c, i) => {
    const p = CONDITIONS.index(i);
    const type = getStr(c, 'type') ?? '';
    const status = getStr(c, 'status') ?? '';
    if (type === '') errs.push(fieldErrors.required(p.child('type'), ''));
    if (!STATUSES.includes(status))
      errs.push(fieldErrors.notSupported(p.child('status'), status, STATUSES));
    errs.push(...finalConditionErrors(type, status, p, before));
    if (type === 'Approved') before.approved = true;
    if (type === 'Denied') before.denied = true;
    if (seen.has(type)) errs.push(fieldErrors.duplicate(p.child('type'), type));
    seen.add(type);
  });
  return errs;
}

/** Upstream `validateCertificateSigningRequest` (v1 options). */
export function validateCSR(obj: KubeObject): FieldError[] {
  const spec = getObj(obj, 'spec') ?? {};
  const errs: FieldError[] = [];
  const requestError = checkCertificateRequest(bytesOf(spec.request));
  if (requestError !== undefined)
    errs.push(fieldErrors.invalid(SPEC.child('request'), spec.request ?? null, requestError));
  errs.push(...validateUsages(spec));
  const signerName = getStr(spec, 'signerName') ?? '';
  if (signerName === LEGACY_SIGNER) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('signerName'),
        signerName,
        'the legacy signerName is not allowed via this API version',
      ),
    );
  } else {
    errs.push(...validateSignerName(signerName));
  }
  const seconds = spec.expirationSeconds;
  if (typeof seconds === 'number' && seconds < 600) {
    errs.push(
      fieldErrors.invalid(
        SPEC.child('expirationSeconds'),
        seconds,
        'may not specify a duration less than 600 seconds (10 minutes)',
      ),
    );
  }
  errs.push(...validateCSRConditions(obj));
  const certificateError = checkIssuedCertificate(bytesOf(getObj(obj, 'status')?.certificate));
  if (certificateError !== undefined)
    errs.push(
      fieldErrors.invalid(path('status', 'certificate'), '<certificate data>', certificateError),
    );
  return errs;
}

function countOf(obj: KubeObject, type: string): number {
  return objects(getObj(obj, 'status'), 'conditions').filter((c) => c.type === type).length;
}

/** No update removes an Approved, Denied or Failed condition (upstream's three update validations). */
function keepsFinalConditions(obj: KubeObject, old: KubeObject): FieldError[] {
  return ['Approved', 'Denied', 'Failed']
    .filter((t) => countOf(obj, t) < countOf(old, t))
    .map((t) =>
      fieldErrors.forbidden(CONDITIONS, `updates may not remove a condition of type "${t}"`),
    );
}

/** Upstream `ValidateCertificateSigningRequestStatusUpdate`'s own rules. */
function validateStatusUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs = [...validateCSR(obj), ...keepsFinalConditions(obj, old)];
  for (const t of ['Approved', 'Denied']) {
    if (countOf(obj, t) > countOf(old, t))
      errs.push(
        fieldErrors.forbidden(CONDITIONS, `updates may not add a condition of type "${t}"`),
      );
  }
  const before = getStr(getObj(old, 'status'), 'certificate') ?? '';
  const after = getStr(getObj(obj, 'status'), 'certificate') ?? '';
  if (before !== '' && after !== before) {
    errs.push(
      fieldErrors.forbidden(
        path('status', 'certificate'),
        'updates may not modify existing certificate content',
      ),
    );
  }
  return errs;
}

/**
 * What a PUT to `/approval` makes of the stored request (upstream `csrApprovalStrategy.
 * PrepareForUpdate`): only the body's conditions are taken; spec, certificate and the rest
 * of the status stay as stored. Metadata is taken as for any write.
 */
export function approvalReplacement(body: KubeObject, current: KubeObject): KubeObject {
  const conditions = getObj(body, 'status')?.conditions;
  const status: JsonObject = { ...getObj(current, 'status') };
  if (conditions === undefined) delete status.conditions;
  else status.conditions = conditions;
  return { ...current, metadata: body.metadata ?? current.metadata, status };
}

/** certificates.k8s.io/v1 `certificatesigningrequests` (`csr`, `/status`, `/approval`). */
export const certificateSigningRequestResource: ResourceDefinition = {
  group: 'certificates.k8s.io',
  version: 'v1',
  kind: 'CertificateSigningRequest',
  listKind: 'CertificateSigningRequestList',
  plural: 'certificatesigningrequests',
  singular: 'certificatesigningrequest',
  namespaced: false,
  shortNames: ['csr'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: true,
  strategy: withBuiltinMetadata({
    prepareForCreate(obj, requester = REQUESTER) {
      const spec = getObj(obj, 'spec');
      if (spec !== undefined) {
        delete spec.uid;
        delete spec.extra;
        spec.username = requester.username;
        if (requester.uid !== undefined && requester.uid !== '') spec.uid = requester.uid;
        spec.groups = [...requester.groups];
        const extra = requester.extra ?? {};
        if (Object.keys(extra).length > 0) {
          spec.extra = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]]));
        }
      }
      obj.status = {};
    },
    prepareForUpdate(obj, old) {
      // The spec is fixed at create; status is kept by the server (status subresource).
      obj.spec = old.spec;
    },
    validate: validateCSR,
    // `/approval` writes come through here too (not a `status` write): conditions are checked
    // by `validate`, and none of the final ones may go.
    validateUpdate: keepsFinalConditions,
    validateStatusUpdate,
  }),
};
