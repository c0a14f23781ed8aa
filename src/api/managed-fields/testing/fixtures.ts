/**
 * Hand-written schemas with the list and map semantics of real Kubernetes kinds (Deployment,
 * ConfigMap) and a CRD, for the managed-fields tests. Only the fields the tests touch.
 *
 * @module
 */
import { SchemaNavigator } from '../../schema/navigator.js';
import type { Schema } from '../../schema/types.js';

const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer' };
const strMap: Schema = { type: 'object', additionalProperties: str };

const envVar: Schema = {
  type: 'object',
  properties: {
    name: str,
    value: str,
    valueFrom: { type: 'object', properties: { fieldRef: { type: 'object' } } },
  },
};

const container: Schema = {
  type: 'object',
  properties: {
    name: str,
    image: str,
    args: { type: 'array', items: str },
    ports: {
      type: 'array',
      items: {
        type: 'object',
        properties: { containerPort: int, protocol: { type: 'string', default: 'TCP' }, name: str },
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
    },
    env: {
      type: 'array',
      items: envVar,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
    resources: { type: 'object', properties: { limits: strMap, requests: strMap } },
  },
};

/** Components referenced by `$ref`, as built-in schemas are published. */
export const components: Readonly<Record<string, Schema>> = {
  'io.k8s.api.core.v1.Container': container,
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector': {
    type: 'object',
    properties: { matchLabels: strMap },
    'x-kubernetes-map-type': 'atomic',
  },
};

const podSpec: Schema = {
  type: 'object',
  properties: {
    containers: {
      type: 'array',
      items: { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
    nodeSelector: strMap,
    tolerations: {
      type: 'array',
      items: { type: 'object', properties: { key: str, operator: str } },
    },
    volumes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: str, emptyDir: { type: 'object', properties: { medium: str } } },
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    },
  },
};

export const deploymentSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        replicas: int,
        paused: { type: 'boolean' },
        selector: {
          allOf: [
            { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector' },
          ],
        },
        template: {
          type: 'object',
          properties: {
            metadata: { type: 'object', properties: { labels: strMap, annotations: strMap } },
            spec: podSpec,
          },
        },
      },
    },
    status: {
      type: 'object',
      properties: {
        replicas: int,
        conditions: {
          type: 'array',
          items: { type: 'object', properties: { type: str, status: str } },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['type'],
        },
      },
    },
  },
};

export const configMapSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    data: strMap,
    binaryData: strMap,
  },
};

/** A CRD schema: a set list, an atomic struct, and a free-form (preserve-unknown-fields) part. */
export const widgetSchema: Schema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        size: int,
        tags: { type: 'array', items: str, 'x-kubernetes-list-type': 'set' },
        target: {
          type: 'object',
          properties: { host: str, port: int },
          'x-kubernetes-map-type': 'atomic',
        },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
};

export const nav = new SchemaNavigator(components);

export const NOW = '2024-05-01T10:00:00.123Z';
export const LATER = '2024-05-01T11:00:00Z';

export function deployment(
  spec: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', ...meta },
    spec,
  };
}

/** A Deployment spec with one container. */
export function webSpec(image = 'nginx:1.25', replicas = 1): Record<string, unknown> {
  return {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] },
    },
  };
}

/** The value at a path of object keys (or list indices), `undefined` when any step is missing. */
export function dig(value: unknown, ...path: (string | number)[]): unknown {
  let cur = value;
  for (const step of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}
