/**
 * Types of the events API group.
 *
 * GENERATED from src/api/schema/builtin/components.generated.json by scripts/gen-api-types.ts: do
 * not edit. Regenerate the schemas and every src/api/model/*.generated.ts with
 *
 *     node --import tsx scripts/gen-builtin-schemas.ts
 *
 * or only the types (from the committed JSON and the celld schemas) with
 *
 *     node --import tsx scripts/gen-api-types.ts
 *
 * src/api/model/generated-fresh.test.ts fails when this file differs from the generator's output.
 *
 * Naming: each definition keeps its upstream short name (Pod, PodSpec, ObjectMeta). When two
 * share one, the core/v1 definition (else the apimachinery one) keeps it and the other is prefixed
 * with its group and version (events.k8s.io/v1 Event → EventsV1Event, discovery.k8s.io/v1
 * EndpointPort → DiscoveryV1EndpointPort); a name TypeScript already has is prefixed too
 * (apiextensions JSON → ApiextensionsV1JSON).
 *
 * Types: a property is optional unless upstream requires it; null is admitted only where
 * ObjectMeta receives it. int32/int64 → number: int64 values beyond 2^53 arrive as bigint
 * (docs/adr/0012-int64-numbers.md), and only ControllerRevision.revision, the one the code does
 * bigint arithmetic on, is typed number | bigint. Quantity, Time and MicroTime → string;
 * IntOrString → number | string; opaque JSON (RawExtension, FieldsV1) → { [key: string]: unknown }.
 * A kind's apiVersion and kind are its literals, so a KubeObject needs isKind/asKind
 * (src/api/model/index.ts) to become one.
 *
 * @module
 */

import type { EventSource, ObjectReference } from './core.generated.js';
import type { ListMeta, MicroTime, ObjectMeta, Time } from './meta.generated.js';

/**
 * Event is a report of an event somewhere in the cluster. It generally denotes some state change in
 * the system. Events have a limited retention time and triggers and messages may evolve with time.
 * Event consumers should not rely on the timing of an event with a given Reason reflecting a
 * consistent underlying trigger, or the continued existence of events with that Reason.  Events
 * should be treated as informative, best-effort, supplemental data.
 */
export type EventsV1Event = {
  /**
   * action is what action was taken/failed regarding to the regarding object. It is
   * machine-readable. This field cannot be empty for new Events and it can have at most 128
   * characters.
   */
  action?: string;
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'events.k8s.io/v1';
  /**
   * deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event
   * type.
   */
  deprecatedCount?: number;
  /**
   * deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1
   * Event type.
   */
  deprecatedFirstTimestamp?: Time;
  /**
   * deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1
   * Event type.
   */
  deprecatedLastTimestamp?: Time;
  deprecatedSource?: EventSource;
  eventTime: MicroTime;
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'Event';
  metadata?: ObjectMeta;
  /**
   * note is a human-readable description of the status of this operation. Maximal length of the
   * note is 1kB, but libraries should be prepared to handle values up to 64kB.
   */
  note?: string;
  /**
   * reason is why the action was taken. It is human-readable. This field cannot be empty for new
   * Events and it can have at most 128 characters.
   */
  reason?: string;
  regarding?: ObjectReference;
  related?: ObjectReference;
  /**
   * reportingController is the name of the controller that emitted this Event, e.g.
   * `kubernetes.io/kubelet`. This field cannot be empty for new Events.
   */
  reportingController?: string;
  /**
   * reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot
   * be empty for new Events and it can have at most 128 characters.
   */
  reportingInstance?: string;
  series?: EventsV1EventSeries;
  /**
   * type is the type of this event (Normal, Warning), new types could be added in the future. It is
   * machine-readable. This field cannot be empty for new Events.
   */
  type?: string;
};

/** EventList is a list of Event objects. */
export type EventsV1EventList = {
  /**
   * APIVersion defines the versioned schema of this representation of an object. Servers should
   * convert recognized schemas to the latest internal value, and may reject unrecognized values.
   * More info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
   */
  apiVersion?: 'events.k8s.io/v1';
  /** items is a list of schema objects. */
  items: EventsV1Event[];
  /**
   * Kind is a string value representing the REST resource this object represents. Servers may infer
   * this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More
   * info:
   * https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
   */
  kind?: 'EventList';
  metadata?: ListMeta;
};

/**
 * EventSeries contain information on series of events, i.e. thing that was/is happening
 * continuously for some time. How often to update the EventSeries is up to the event reporters. The
 * default event reporter in "k8s.io/client-go/tools/events/event_broadcaster.go" shows how this
 * struct is updated on heartbeats and can guide customized reporter implementations.
 */
export type EventsV1EventSeries = {
  /** count is the number of occurrences in this series up to the last heartbeat time. */
  count: number;
  lastObservedTime: MicroTime;
};
