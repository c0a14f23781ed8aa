/**
 * A hand-written subset of the apps/v1 Deployment (and StatefulSet) schema with the real patch metadata
 * (containers by `name`, ports by `containerPort`, env by `name`, volumes by `name` with
 * `merge,retainKeys`, strategy `retainKeys`, finalizers as a merged set, tolerations atomic),
 * shaped like the published OpenAPI v3: components referred to by `$ref`, wrapped in
 * `allOf` where upstream adds a description or default.
 *
 * @module
 */
import { SchemaNavigator } from '../../../schema/navigator.js';
import type { Schema, SchemaComponents } from '../../../schema/types.js';

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const wrapped = (name: string, extra: Partial<Schema> = {}): Schema => ({
  allOf: [ref(name)],
  ...extra,
});
const str: Schema = { type: 'string' };
const int: Schema = { type: 'integer', format: 'int32' };
const stringMap: Schema = { type: 'object', additionalProperties: str };

const components: SchemaComponents = {
  ObjectMeta: {
    type: 'object',
    properties: {
      name: str,
      labels: stringMap,
      annotations: stringMap,
      finalizers: {
        type: 'array',
        items: str,
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
  Deployment: {
    type: 'object',
    properties: {
      apiVersion: str,
      kind: str,
      metadata: wrapped('ObjectMeta', { default: {} }),
      spec: wrapped('DeploymentSpec', { default: {} }),
    },
  },
  DeploymentSpec: {
    type: 'object',
    required: ['template'],
    properties: {
      replicas: int,
      strategy: wrapped('DeploymentStrategy', {
        default: {},
        'x-kubernetes-patch-strategy': 'retainKeys',
      }),
      template: wrapped('PodTemplateSpec', { default: {} }),
    },
  },
  StatefulSet: {
    type: 'object',
    properties: {
      apiVersion: str,
      kind: str,
      metadata: wrapped('ObjectMeta', { default: {} }),
      spec: wrapped('StatefulSetSpec', { default: {} }),
    },
  },
  StatefulSetSpec: {
    type: 'object',
    properties: { replicas: int, template: wrapped('PodTemplateSpec', { default: {} }) },
  },
  DeploymentStrategy: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: ['Recreate', 'RollingUpdate'] },
      rollingUpdate: ref('RollingUpdateDeployment'),
    },
  },
  RollingUpdateDeployment: {
    type: 'object',
    properties: {
      maxSurge: { 'x-kubernetes-int-or-string': true },
      maxUnavailable: { 'x-kubernetes-int-or-string': true },
    },
  },
  PodTemplateSpec: {
    type: 'object',
    properties: { metadata: wrapped('ObjectMeta', { default: {} }), spec: ref('PodSpec') },
  },
  PodSpec: {
    type: 'object',
    required: ['containers'],
    properties: {
      containers: {
        type: 'array',
        items: wrapped('Container', { default: {} }),
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      },
      volumes: {
        type: 'array',
        items: wrapped('Volume', { default: {} }),
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
      },
      tolerations: {
        type: 'array',
        items: wrapped('Toleration', { default: {} }),
        'x-kubernetes-list-type': 'atomic',
      },
      nodeSelector: stringMap,
    },
  },
  Container: {
    type: 'object',
    required: ['name'],
    properties: {
      name: str,
      image: str,
      args: { type: 'array', items: str, 'x-kubernetes-list-type': 'atomic' },
      ports: {
        type: 'array',
        items: wrapped('ContainerPort', { default: {} }),
        'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'containerPort',
        'x-kubernetes-patch-strategy': 'merge',
      },
      env: {
        type: 'array',
        items: wrapped('EnvVar', { default: {} }),
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'name',
        'x-kubernetes-patch-strategy': 'merge',
      },
    },
  },
  ContainerPort: {
    type: 'object',
    required: ['containerPort'],
    properties: {
      containerPort: int,
      name: str,
      protocol: { type: 'string', default: 'TCP', enum: ['SCTP', 'TCP', 'UDP'] },
    },
  },
  EnvVar: {
    type: 'object',
    required: ['name'],
    properties: { name: str, value: str },
  },
  Volume: {
    type: 'object',
    required: ['name'],
    properties: {
      name: str,
      emptyDir: ref('EmptyDirVolumeSource'),
      configMap: ref('ConfigMapVolumeSource'),
    },
  },
  EmptyDirVolumeSource: { type: 'object', properties: { medium: str } },
  ConfigMapVolumeSource: {
    type: 'object',
    properties: { name: str, optional: { type: 'boolean' } },
  },
  Toleration: {
    type: 'object',
    properties: { key: str, operator: str, effect: str, value: str },
  },
};

export const deploymentNav = new SchemaNavigator(components);
export const deploymentSchema: Schema = ref('Deployment');
export const statefulSetSchema: Schema = ref('StatefulSet');
