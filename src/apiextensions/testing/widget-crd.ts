/**
 * A realistic CustomResourceDefinition for tests: required fields, an enum, defaults, CEL
 * rules (one a transition rule with `oldSelf`), status and scale subresources, printer
 * columns, short names, categories, and a second served version (conversion `None`).
 *
 * @module
 */

export const WIDGET_CRD_NAME = 'widgets.example.com';

export function widgetCrd(): Record<string, unknown> {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        'x-kubernetes-validations': [
          {
            rule: 'self.replicas <= self.maxReplicas',
            message: 'replicas must not exceed maxReplicas',
          },
        ],
        properties: {
          size: { type: 'string', enum: ['small', 'large'] },
          replicas: { type: 'integer', minimum: 0, default: 1 },
          maxReplicas: { type: 'integer', default: 5 },
          owner: {
            type: 'string',
            'x-kubernetes-validations': [
              { rule: 'self == oldSelf', message: 'owner is immutable' },
            ],
          },
          tags: {
            type: 'array',
            items: { type: 'string' },
            'x-kubernetes-list-type': 'set',
          },
        },
      },
      status: {
        type: 'object',
        properties: { replicas: { type: 'integer' }, phase: { type: 'string' } },
      },
    },
  };
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: schema },
    subresources: {
      status: {},
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    },
    additionalPrinterColumns: [
      { name: 'Size', type: 'string', jsonPath: '.spec.size' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Owner', type: 'string', jsonPath: '.spec.owner', priority: 1 },
    ],
  });
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: WIDGET_CRD_NAME },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        shortNames: ['wd'],
        categories: ['fleet'],
      },
      versions: [version('v1', true), version('v1beta1', false)],
    },
  };
}
