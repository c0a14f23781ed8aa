/**
 * Protobuf schema tables: scheduling.k8s.io/v1 PriorityClass (`kubectl create priorityclass`
 * in kubectl 1.33 sends it as protobuf).
 *
 * Field numbers from k8s.io/api v0.33 `scheduling/v1/generated.proto`; rows in Go struct order.
 * The message is filed under the `core` table group only because `TableGroup` in `schema.ts`
 * has no `scheduling` yet; the name is internal (never on the wire), and it becomes
 * `scheduling.PriorityClass` once that group is added.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for scheduling.k8s.io/v1 messages. */
export const schedulingTables: MessageTables = {
  /** k8s.io.api.scheduling.v1.PriorityClass */
  'core.PriorityClass': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    // `value` is a plain int32 without omitempty: 0 is written.
    [2, 'value', 'int32'],
    [3, 'globalDefault', 'bool', 'o'],
    [4, 'description', 'string', 'o'],
    [5, 'preemptionPolicy', 'string', 'op'],
  ],
};
