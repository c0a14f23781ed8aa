/**
 * The status a CustomResourceDefinition should have, as a pure plan: which of its requested
 * names it may use, and its `NamesAccepted`, `Established` and `Terminating` conditions
 * (upstream's naming, establishing and finalizer controllers in
 * `apiextensions-apiserver/pkg/controller`).
 *
 * A name is accepted when the CRD already holds it or no other CRD of the same group uses
 * it; a CRD whose names are all accepted is established at once, because this server starts
 * serving its endpoints synchronously, before the status is written.
 *
 * @module
 */
import type {
  CrdCondition,
  CrdNames,
  CrdStatus,
  CustomResourceDefinition,
} from '../api/crd-types.js';

export interface NamesPlan {
  readonly acceptedNames: CrdNames;
  readonly namesAccepted: CrdCondition;
}

/** Names claimed by the other CRDs of the same group (their accepted names). */
export function namesInUse(others: readonly CustomResourceDefinition[]): {
  resources: Set<string>;
  kinds: Set<string>;
} {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const o of others) {
    const n = o.status?.acceptedNames ?? {};
    for (const r of [n.plural, n.singular, ...(n.shortNames ?? [])]) if (r) resources.add(r);
    for (const k of [n.kind, n.listKind]) if (k) kinds.add(k);
  }
  return { resources, kinds };
}

function conflict(requested: string | undefined, accepted: string | undefined, used: Set<string>) {
  if (requested === accepted || requested === undefined || !used.has(requested)) return undefined;
  return `"${requested}" is already in use`;
}

/** Upstream `calculateNamesAndConditions` (naming controller). */
export function planNames(
  crd: CustomResourceDefinition,
  others: readonly CustomResourceDefinition[],
): NamesPlan {
  const requested = crd.spec?.names ?? {};
  const accepted = crd.status?.acceptedNames ?? {};
  const { resources, kinds } = namesInUse(others);
  const next: CrdNames = { ...accepted };
  let failure: { reason: string; message: string } | undefined;
  const check = (
    key: 'plural' | 'singular' | 'kind' | 'listKind',
    used: Set<string>,
    reason: string,
  ) => {
    const message = conflict(requested[key], accepted[key], used);
    if (message) failure = { reason, message };
    else if (requested[key] !== undefined) next[key] = requested[key];
  };
  check('plural', resources, 'PluralConflict');
  check('singular', resources, 'SingularConflict');
  const shortConflicts = (requested.shortNames ?? [])
    .filter((s) => !(accepted.shortNames ?? []).includes(s))
    .filter((s) => s !== accepted.plural && s !== accepted.singular)
    .map((s) => conflict(s, '', resources))
    .filter((m): m is string => m !== undefined);
  if (shortConflicts.length > 0) {
    failure = { reason: 'ShortNamesConflict', message: aggregate(shortConflicts) };
  } else if (requested.shortNames !== undefined) {
    next.shortNames = requested.shortNames;
  }
  check('kind', kinds, 'KindConflict');
  check('listKind', kinds, 'ListKindConflict');
  if (requested.categories !== undefined) next.categories = requested.categories;
  else delete next.categories;
  const namesAccepted: CrdCondition = failure
    ? { type: 'NamesAccepted', status: 'False', ...failure }
    : {
        type: 'NamesAccepted',
        status: 'True',
        reason: 'NoConflicts',
        message: 'no conflicts found',
      };
  return { acceptedNames: next, namesAccepted };
}

/** Go's `utilerrors.NewAggregate(...).Error()`: one message as is, several in brackets. */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`;
}

/** The CRD's next status (names and conditions) at time `now` (RFC 3339). */
export function planCrdStatus(
  crd: CustomResourceDefinition,
  others: readonly CustomResourceDefinition[],
  now: string,
): CrdStatus {
  const status = crd.status ?? {};
  const { acceptedNames, namesAccepted } = planNames(crd, others);
  let conditions = setCondition(status.conditions ?? [], namesAccepted, now);
  const established = conditions.find((c) => c.type === 'Established');
  if (namesAccepted.status === 'True') {
    conditions = setCondition(conditions, ESTABLISHED, now);
  } else if (established === undefined) {
    conditions = setCondition(conditions, NOT_ESTABLISHED, now);
  }
  return { ...status, acceptedNames, conditions };
}

const ESTABLISHED: CrdCondition = {
  type: 'Established',
  status: 'True',
  reason: 'InitialNamesAccepted',
  message: 'the initial names have been accepted',
};

const NOT_ESTABLISHED: CrdCondition = {
  type: 'Established',
  status: 'False',
  reason: 'NotAccepted',
  message: 'not all names are accepted',
};

/**
 * Upstream `SetCRDCondition`: replaces the condition of the same type, keeping its
 * `lastTransitionTime` unless the status changed.
 */
export function setCondition(
  conditions: readonly CrdCondition[],
  next: CrdCondition,
  now: string,
): CrdCondition[] {
  const existing = conditions.find((c) => c.type === next.type);
  const time =
    existing && existing.status === next.status && existing.lastTransitionTime
      ? existing.lastTransitionTime
      : now;
  const merged: CrdCondition = {
    type: next.type,
    status: next.status,
    lastTransitionTime: time,
    ...(next.reason ? { reason: next.reason } : {}),
    ...(next.message ? { message: next.message } : {}),
  };
  if (!existing) return [...conditions, merged];
  return conditions.map((c) => (c.type === next.type ? merged : c));
}
