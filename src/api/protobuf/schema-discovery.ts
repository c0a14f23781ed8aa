/**
 * Protobuf schema tables: discovery.k8s.io/v1 EndpointSlice messages.
 *
 * Each row is `[field number, JSON name, type, flags]` (see {@link FieldRow}); rows are in Go
 * struct order, which is the order upstream JSON emits (an EndpointSlice writes
 * `addressType`, field 4, before `endpoints`, field 2). Taken from the Go types of
 * k8s.io/api v0.33 (kubectl 1.33), `discovery/v1/types.go` and `generated.proto`.
 *
 * @module
 */
import type { MessageTables } from './schema.js';

/** Tables for discovery.k8s.io/v1 EndpointSlice messages. */
export const discoveryTables: MessageTables = {
  /** k8s.io.api.discovery.v1.EndpointSlice */
  'discovery.EndpointSlice': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [4, 'addressType', 'string'],
    [2, 'endpoints', 'discovery.Endpoint', 'r'],
    [3, 'ports', 'discovery.EndpointPort', 'r'],
  ],
  /** k8s.io.api.discovery.v1.Endpoint */
  'discovery.Endpoint': [
    [1, 'addresses', 'string', 'r'],
    [2, 'conditions', 'discovery.EndpointConditions', 'o'],
    [3, 'hostname', 'string', 'op'],
    [4, 'targetRef', 'core.ObjectReference', 'op'],
    [5, 'deprecatedTopology', 'string', 'om'],
    [6, 'nodeName', 'string', 'op'],
    [7, 'zone', 'string', 'op'],
    [8, 'hints', 'discovery.EndpointHints', 'op'],
  ],
  /** k8s.io.api.discovery.v1.EndpointConditions */
  'discovery.EndpointConditions': [
    [1, 'ready', 'bool', 'op'],
    [2, 'serving', 'bool', 'op'],
    [3, 'terminating', 'bool', 'op'],
  ],
  /** k8s.io.api.discovery.v1.EndpointHints */
  'discovery.EndpointHints': [
    [1, 'forZones', 'discovery.ForZone', 'or'],
    [2, 'forNodes', 'discovery.ForNode', 'or'],
  ],
  /** k8s.io.api.discovery.v1.ForZone */
  'discovery.ForZone': [[1, 'name', 'string']],
  /** k8s.io.api.discovery.v1.ForNode */
  'discovery.ForNode': [[1, 'name', 'string']],
  /** k8s.io.api.discovery.v1.EndpointPort */
  'discovery.EndpointPort': [
    [1, 'name', 'string', 'op'],
    [2, 'protocol', 'string', 'op'],
    [3, 'port', 'int32', 'op'],
    [4, 'appProtocol', 'string', 'op'],
  ],
};
