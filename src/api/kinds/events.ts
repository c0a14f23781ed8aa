/**
 * Events, served twice as upstream serves them: core/v1 (`ev`, legacy validation only, names
 * need only be path segments) and events.k8s.io/v1 (strict validation on create and update).
 * Both are one store, as upstream's (events.k8s.io cohabits with core events): objects are
 * kept as core/v1 Events and events.k8s.io/v1 converts to and from them field by field
 * (upstream `pkg/apis/events/v1/conversion.go`: `regarding` is `involvedObject`, `note` is
 * `message`, `reportingController` is `reportingComponent`, `deprecatedSource`,
 * `deprecatedFirstTimestamp`, `deprecatedLastTimestamp` and `deprecatedCount` are `source`,
 * `firstTimestamp`, `lastTimestamp` and `count`), so an event written through one API is
 * read, listed and watched through the other.
 *
 * Errors use upstream's internal field names for both APIs (`involvedObject`, `message`,
 * `reportingController`, `firstTimestamp`…), as upstream's messages do.
 *
 * @module
 */
import { type FieldError, fieldErrors, path } from '../field-error.js';
import type { KubeObject } from '../object.js';
import type { ResourceDefinition } from '../resource.js';
import { isDNS1123Subdomain } from '../validation/dns.js';
import { isQualifiedName } from '../validation/label-names.js';
import { immutable, withBuiltinMetadata } from './common.js';
import { getNum, getObj, getStr, setDefault } from './json.js';

const REPORTING_INSTANCE_LIMIT = 128;
const ACTION_LIMIT = 128;
const REASON_LIMIT = 128;
const NOTE_LIMIT = 1024;

/** An event in upstream's internal shape, whichever API it came through. */
interface EventView {
  readonly namespace: string;
  readonly involvedNamespace: string;
  readonly eventTime: unknown;
  readonly reportingController: string;
  readonly reportingInstance: string;
  readonly action: string;
  readonly reason: string;
  readonly message: string;
  readonly type: string;
}

function isZeroTime(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function coreView(obj: KubeObject): EventView {
  return {
    namespace: obj.metadata?.namespace ?? '',
    involvedNamespace: getStr(getObj(obj, 'involvedObject'), 'namespace') ?? '',
    eventTime: obj.eventTime,
    reportingController: getStr(obj, 'reportingComponent') ?? '',
    reportingInstance: getStr(obj, 'reportingInstance') ?? '',
    action: getStr(obj, 'action') ?? '',
    reason: getStr(obj, 'reason') ?? '',
    message: getStr(obj, 'message') ?? '',
    type: getStr(obj, 'type') ?? '',
  };
}

function eventsView(obj: KubeObject): EventView {
  return {
    ...coreView(obj),
    involvedNamespace: getStr(getObj(obj, 'regarding'), 'namespace') ?? '',
    reportingController: getStr(obj, 'reportingController') ?? '',
    message: getStr(obj, 'note') ?? '',
  };
}

function tooLong(field: string, value: string, limit: number): FieldError[] {
  return value.length > limit
    ? [fieldErrors.invalid(path(field), '', `can have at most ${limit} characters`)]
    : [];
}

function required(field: string, value: string): FieldError[] {
  return value === '' ? [fieldErrors.required(path(field), '')] : [];
}

/** The checks of new-style events (those with an `eventTime`). */
function validateNewStyle(e: EventView): FieldError[] {
  const errs: FieldError[] = [];
  if (e.involvedNamespace === '' && e.namespace !== 'default' && e.namespace !== 'kube-system') {
    errs.push(
      fieldErrors.invalid(
        path('involvedObject', 'namespace'),
        e.involvedNamespace,
        'does not match event.namespace',
      ),
    );
  }
  errs.push(...required('reportingController', e.reportingController));
  for (const msg of isQualifiedName(e.reportingController)) {
    errs.push(fieldErrors.invalid(path('reportingController'), e.reportingController, msg));
  }
  errs.push(...required('reportingInstance', e.reportingInstance));
  errs.push(...tooLong('reportingInstance', e.reportingInstance, REPORTING_INSTANCE_LIMIT));
  errs.push(...required('action', e.action), ...tooLong('action', e.action, ACTION_LIMIT));
  errs.push(...required('reason', e.reason), ...tooLong('reason', e.reason, REASON_LIMIT));
  errs.push(...tooLong('message', e.message, NOTE_LIMIT));
  return errs;
}

/** Upstream `legacyValidateEvent`: what every event must satisfy, through either API. */
function legacyValidate(e: EventView): FieldError[] {
  const errs: FieldError[] = [];
  if (isZeroTime(e.eventTime)) {
    const ok =
      e.involvedNamespace === ''
        ? e.namespace === '' || e.namespace === 'default'
        : e.namespace === e.involvedNamespace;
    if (!ok) {
      errs.push(
        fieldErrors.invalid(
          path('involvedObject', 'namespace'),
          e.involvedNamespace,
          'does not match event.namespace',
        ),
      );
    }
  } else {
    errs.push(...validateNewStyle(e));
  }
  for (const msg of isDNS1123Subdomain(e.namespace))
    errs.push(fieldErrors.invalid(path('namespace'), e.namespace, msg));
  return errs;
}

/** Upstream `validateV1EventSeries`. */
function validateSeries(obj: KubeObject): FieldError[] {
  const series = getObj(obj, 'series');
  if (series === undefined) return [];
  const errs: FieldError[] = [];
  if ((getNum(series, 'count') ?? 0) < 2)
    errs.push(fieldErrors.invalid(path('series.count'), '', 'should be at least 2'));
  if (isZeroTime(series.lastObservedTime))
    errs.push(fieldErrors.required(path('series.lastObservedTime'), ''));
  return errs;
}

/** The strict create checks of events.k8s.io/v1 (upstream `ValidateEventCreate`). */
function validateStrict(obj: KubeObject): FieldError[] {
  const errs = [...legacyValidate(eventsView(obj)), ...validateSeries(obj)];
  if (isZeroTime(obj.eventTime)) errs.push(fieldErrors.required(path('eventTime'), ''));
  const type = getStr(obj, 'type') ?? '';
  if (type !== 'Normal' && type !== 'Warning')
    errs.push(fieldErrors.invalid(path('type'), '', `has invalid value: ${type}`));
  if (!isZeroTime(obj.deprecatedFirstTimestamp))
    errs.push(fieldErrors.invalid(path('firstTimestamp'), '', 'needs to be unset'));
  if (!isZeroTime(obj.deprecatedLastTimestamp))
    errs.push(fieldErrors.invalid(path('lastTimestamp'), '', 'needs to be unset'));
  if ((getNum(obj, 'deprecatedCount') ?? 0) !== 0)
    errs.push(fieldErrors.invalid(path('count'), '', 'needs to be unset'));
  const source = getObj(obj, 'deprecatedSource');
  if ((getStr(source, 'component') ?? '') !== '' || (getStr(source, 'host') ?? '') !== '') {
    errs.push(fieldErrors.invalid(path('source'), '', 'needs to be unset'));
  }
  return errs;
}

/** events.k8s.io field → upstream's internal name, for the immutable-field errors. */
const IMMUTABLE_EVENT_FIELDS: readonly (readonly [string, string])[] = [
  ['regarding', 'involvedObject'],
  ['reason', 'reason'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['type', 'type'],
  ['eventTime', 'eventTime'],
  ['action', 'action'],
  ['related', 'related'],
  ['reportingController', 'reportingController'],
  ['reportingInstance', 'reportingInstance'],
];

function validateStrictUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
  const errs =
    immutable(obj.series, old.series, path('series')).length > 0 ? validateSeries(obj) : [];
  for (const [field, internal] of IMMUTABLE_EVENT_FIELDS)
    errs.push(...immutable(obj[field], old[field], path(internal)));
  return errs;
}

/** Upstream event `ToSelectableFields` over one object reference field. */
function eventFields(
  obj: KubeObject,
  refField: string,
  refLabel: string,
  controller: string,
  controllerLabel: string,
) {
  const ref = getObj(obj, refField);
  const sourceComponent =
    getStr(getObj(obj, refField === 'regarding' ? 'deprecatedSource' : 'source'), 'component') ??
    '';
  const fields: Record<string, string> = {};
  for (const k of [
    'kind',
    'namespace',
    'name',
    'uid',
    'apiVersion',
    'resourceVersion',
    'fieldPath',
  ]) {
    fields[`${refLabel}.${k}`] = getStr(ref, k) ?? '';
  }
  fields.reason = getStr(obj, 'reason') ?? '';
  fields[controllerLabel] = getStr(obj, controller) ?? '';
  fields.source = sourceComponent === '' ? (getStr(obj, controller) ?? '') : sourceComponent;
  fields.type = getStr(obj, 'type') ?? '';
  return fields;
}

/** core/v1 `events` (`ev`). */
export const coreEventResource: ResourceDefinition = {
  group: '',
  version: 'v1',
  kind: 'Event',
  listKind: 'EventList',
  plural: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  nameValidation: 'path-segment',
  generation: 'none',
  statusSubresource: false,
  strategy: withBuiltinMetadata({
    defaults(obj) {
      // Not omitempty in core/v1 Event, so upstream always shows them.
      setDefault(obj, 'reportingComponent', '');
      setDefault(obj, 'reportingInstance', '');
      setDefault(obj, 'involvedObject', {});
      setDefault(obj, 'source', {});
    },
    validate: (obj) => legacyValidate(coreView(obj)),
    selectableFields: (obj) =>
      eventFields(
        obj,
        'involvedObject',
        'involvedObject',
        'reportingComponent',
        'reportingComponent',
      ),
  }),
};

/** Sets `key` when `value` is present (Go's `omitempty` of a pointer or a struct given as null stays null). */
function put(out: KubeObject, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value;
}

/** Sets `key` when `value` is neither absent nor Go's zero for an `omitempty` string or number. */
function putNonZero(out: KubeObject, key: string, value: unknown): void {
  if (value !== undefined && value !== null && value !== '' && value !== 0) out[key] = value;
}

/**
 * An events.k8s.io/v1 Event as the core/v1 Event it is stored as (upstream
 * `Convert_v1_Event_To_core_Event`, then core/v1's encoding: `involvedObject`, `source`,
 * `reportingComponent` and `reportingInstance` are always written).
 */
export function eventsToCoreEvent(ev: KubeObject): KubeObject {
  const out: KubeObject = {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: structuredClone(ev.metadata),
  };
  out.involvedObject = structuredClone(ev.regarding ?? {});
  putNonZero(out, 'reason', ev.reason);
  putNonZero(out, 'message', ev.note);
  out.source = structuredClone(ev.deprecatedSource ?? {});
  put(out, 'firstTimestamp', ev.deprecatedFirstTimestamp);
  put(out, 'lastTimestamp', ev.deprecatedLastTimestamp);
  putNonZero(out, 'count', ev.deprecatedCount);
  putNonZero(out, 'type', ev.type);
  // A legacy event's `eventTime: null` (events.k8s.io shows it) is stored as absent.
  if (ev.eventTime !== null) put(out, 'eventTime', ev.eventTime);
  put(out, 'series', structuredClone(ev.series));
  putNonZero(out, 'action', ev.action);
  put(out, 'related', structuredClone(ev.related));
  out.reportingComponent = ev.reportingController ?? '';
  out.reportingInstance = ev.reportingInstance ?? '';
  return out;
}

/**
 * A stored core/v1 Event as events.k8s.io/v1 serves it (upstream
 * `Convert_core_Event_To_v1_Event`, in the Go struct's field order; `eventTime` has no
 * omitempty, so a legacy event shows `null`; `regarding` and `deprecatedSource` are structs).
 */
export function coreToEventsEvent(core: KubeObject): KubeObject {
  const out: KubeObject = {
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: structuredClone(core.metadata),
  };
  out.eventTime = core.eventTime ?? null;
  put(out, 'series', structuredClone(core.series));
  putNonZero(out, 'reportingController', core.reportingComponent);
  putNonZero(out, 'reportingInstance', core.reportingInstance);
  putNonZero(out, 'action', core.action);
  putNonZero(out, 'reason', core.reason);
  out.regarding = structuredClone(core.involvedObject ?? {});
  put(out, 'related', structuredClone(core.related));
  putNonZero(out, 'note', core.message);
  putNonZero(out, 'type', core.type);
  out.deprecatedSource = structuredClone(core.source ?? {});
  put(out, 'deprecatedFirstTimestamp', core.firstTimestamp);
  put(out, 'deprecatedLastTimestamp', core.lastTimestamp);
  putNonZero(out, 'deprecatedCount', core.count);
  return out;
}

/** events.k8s.io/v1 `events` (`ev`), kept in core/v1 events' storage. */
export const eventsEventResource: ResourceDefinition = {
  group: 'events.k8s.io',
  version: 'v1',
  kind: 'Event',
  listKind: 'EventList',
  plural: 'events',
  singular: 'event',
  namespaced: true,
  shortNames: ['ev'],
  nameValidation: 'dns-subdomain',
  generation: 'none',
  statusSubresource: false,
  storage: {
    group: '',
    version: 'v1',
    plural: 'events',
    toStorage: eventsToCoreEvent,
    fromStorage: coreToEventsEvent,
  },
  strategy: withBuiltinMetadata({
    validate: validateStrict,
    validateUpdate: validateStrictUpdate,
    selectableFields: (obj) =>
      eventFields(obj, 'regarding', 'regarding', 'reportingController', 'reportingController'),
  }),
};
