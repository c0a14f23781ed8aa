/**
 * Whole Tables: the wire shape, `includeObject`, list metadata, custom resources' printer
 * columns, `/scale` Tables, and a property that no object, however broken, breaks a Table.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject } from '../object.js';
import type { PrinterColumn, ResourceDefinition } from '../resource.js';
import { FIELD_DOCS } from './descriptions.js';
import { printerColumnsError, scaleTableFor, tableFor } from './index.js';

const NOW = new Date('2024-05-01T12:00:00Z');

function def(
  group: string,
  kind: string,
  extra: Partial<ResourceDefinition> = {},
): ResourceDefinition {
  return {
    group,
    version: 'v1',
    kind,
    listKind: `${kind}List`,
    plural: `${kind.toLowerCase()}s`,
    singular: kind.toLowerCase(),
    namespaced: true,
    nameValidation: 'dns-subdomain',
    generation: 'spec',
    statusSubresource: true,
    strategy: {},
    ...extra,
  };
}

function crd(
  printerColumns: PrinterColumn[],
  extra: Partial<ResourceDefinition> = {},
): ResourceDefinition {
  return def('example.com', 'Widget', {
    customResource: {
      crdName: 'widgets.example.com',
      schema: undefined,
      printerColumns,
      selectableFields: [],
    },
    ...extra,
  });
}

const configMap: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'cm',
    namespace: 'default',
    uid: 'u1',
    resourceVersion: '42',
    creationTimestamp: '2024-05-01T11:00:00Z',
    labels: { app: 'web' },
  },
  data: { a: '1' },
};

describe('tableFor: shape', () => {
  it('has the upstream envelope, PartialObjectMetadata rows and list metadata', () => {
    const table = tableFor(def('', 'ConfigMap'), [configMap], {
      now: NOW,
      resourceVersion: '43',
      continue: 'tok',
      remainingItemCount: 5,
    });
    assert.deepEqual(JSON.parse(JSON.stringify(table)), {
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '43', continue: 'tok', remainingItemCount: 5 },
      columnDefinitions: [
        {
          name: 'Name',
          type: 'string',
          format: 'name',
          description: FIELD_DOCS['ObjectMeta.name'],
          priority: 0,
        },
        {
          name: 'Data',
          type: 'string',
          format: '',
          description: FIELD_DOCS['ConfigMap.data'],
          priority: 0,
        },
        {
          name: 'Age',
          type: 'string',
          format: '',
          description: FIELD_DOCS['ObjectMeta.creationTimestamp'],
          priority: 0,
        },
      ],
      rows: [
        {
          cells: ['cm', 1, '60m'],
          object: {
            kind: 'PartialObjectMetadata',
            apiVersion: 'meta.k8s.io/v1',
            metadata: configMap.metadata,
          },
        },
      ],
    });
  });

  it('omits empty list metadata and headers when asked', () => {
    const table = tableFor(def('', 'ConfigMap'), [], {
      now: NOW,
      resourceVersion: '',
      columnDefinitions: false,
    });
    assert.deepEqual(table.metadata, {});
    assert.equal(table.columnDefinitions, null);
    assert.deepEqual(table.rows, []);
  });

  it('includeObject=Object carries the object, None carries null', () => {
    const d = def('', 'ConfigMap');
    assert.equal(
      tableFor(d, [configMap], { now: NOW, includeObject: 'Object' }).rows[0]?.object,
      configMap,
    );
    const none = tableFor(d, [configMap], { now: NOW, includeObject: 'None' });
    assert.equal(none.rows[0]?.object, null);
    assert.match(JSON.stringify(none), /"object":null/);
  });

  it('pod wide columns have priority 1, and finished pods carry a row condition', () => {
    const table = tableFor(
      def('', 'Pod'),
      [{ metadata: { name: 'p' }, spec: {}, status: { phase: 'Succeeded' } }],
      {
        now: NOW,
      },
    );
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.priority]),
      [
        ['Name', 0],
        ['Ready', 0],
        ['Status', 0],
        ['Restarts', 0],
        ['Age', 0],
        ['IP', 1],
        ['Node', 1],
        ['Nominated Node', 1],
        ['Readiness Gates', 1],
      ],
    );
    assert.equal(table.rows[0]?.conditions?.[0]?.reason, 'Succeeded');
  });

  it('CustomResourceDefinitions and unknown kinds get Name and Created At', () => {
    const table = tableFor(def('apiextensions.k8s.io', 'CustomResourceDefinition'), [configMap], {
      now: NOW,
    });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.type, c.format]),
      [
        ['Name', 'string', 'name'],
        ['Created At', 'date', ''],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, ['cm', '2024-05-01T11:00:00Z']);
  });
});

describe('tableFor: custom resources', () => {
  const widget: KubeObject = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w1', creationTimestamp: '2024-05-01T11:55:00Z' },
    spec: {
      replicas: 3.7,
      color: 'blue',
      size: { w: 1 },
      enabled: true,
      ratio: 0.5,
      nothing: null,
    },
    status: {
      lastSync: '2024-05-01T11:59:00Z',
      bad: 'yesterday',
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
  const columns: PrinterColumn[] = [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'The color' },
    { name: 'Size', type: 'string', jsonPath: '.spec.size', priority: 1 },
    { name: 'Enabled', type: 'boolean', jsonPath: '.spec.enabled' },
    { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', format: 'double' },
    { name: 'Synced', type: 'date', jsonPath: '.status.lastSync' },
    { name: 'Bad', type: 'date', jsonPath: '.status.bad' },
    { name: 'Missing', type: 'string', jsonPath: '.status.missing' },
    { name: 'Null', type: 'string', jsonPath: '.spec.nothing' },
    { name: 'WrongType', type: 'integer', jsonPath: '.spec.color' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
  ];

  it('evaluates printer columns as upstream tableconvertor', () => {
    const table = tableFor(crd(columns), [widget], { now: NOW });
    assert.deepEqual(table.rows[0]?.cells, [
      'w1',
      3,
      'blue',
      '{"w":1}',
      true,
      0.5,
      '60s',
      '<invalid>',
      null,
      '<no value>',
      null,
      'True',
    ]);
    const defs = table.columnDefinitions ?? [];
    assert.deepEqual(defs[2], {
      name: 'Color',
      type: 'string',
      format: '',
      description: 'The color',
      priority: 0,
    });
    assert.equal(defs[3]?.priority, 1);
    assert.equal(
      defs[3]?.description,
      'Custom resource definition column (in JSONPath format): .spec.size',
    );
    assert.equal(defs[5]?.format, 'double');
  });

  it('defaults to an Age column when the version has none', () => {
    const table = tableFor(crd([]), [widget], { now: NOW });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.type]),
      [
        ['Name', 'string'],
        ['Age', 'date'],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, ['w1', '5m']);
  });

  it('stops at a column that does not parse, and reports it', () => {
    const d = crd([
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Broken', type: 'string', jsonPath: '.spec[' },
      { name: 'After', type: 'string', jsonPath: '.spec.color' },
    ]);
    assert.equal(printerColumnsError(d), 'unrecognized column definition ".spec["');
    const table = tableFor(d, [widget], { now: NOW });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => c.name),
      ['Name', 'Color'],
    );
    assert.deepEqual(table.rows[0]?.cells, ['w1', 'blue']);
    assert.equal(printerColumnsError(crd(columns)), undefined);
  });
});

describe('scaleTableFor', () => {
  const scale: KubeObject = {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: 'web', creationTimestamp: '2024-05-01T11:00:00Z' },
    spec: { replicas: 3 },
    status: { replicas: 2, selector: 'app=web' },
  };

  it('built-in kinds use printScale (Name without format)', () => {
    const table = scaleTableFor(def('apps', 'Deployment'), scale, { now: NOW });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.type, c.format]),
      [
        ['Name', 'string', ''],
        ['Desired', 'integer', ''],
        ['Available', 'integer', ''],
        ['Age', 'string', ''],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, ['web', 3, 2, '60m']);
  });

  it('custom resources get Desired/Available when their scale paths are set', () => {
    const d = crd([], {
      scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
    });
    const table = scaleTableFor(d, scale, { now: NOW });
    assert.deepEqual(
      table.columnDefinitions?.map((c) => [c.name, c.type, c.description]),
      [
        ['Name', 'string', FIELD_DOCS['ObjectMeta.name']],
        ['Desired', 'integer', 'Number of desired replicas'],
        ['Available', 'integer', 'Number of actual replicas'],
        ['Age', 'date', FIELD_DOCS['ObjectMeta.creationTimestamp']],
      ],
    );
    assert.deepEqual(table.rows[0]?.cells, ['web', 3, 2, '60m']);
  });
});

describe('tableFor: never throws', () => {
  const kinds: Array<[string, string]> = [
    ['', 'Pod'],
    ['apps', 'Deployment'],
    ['apps', 'ReplicaSet'],
    ['apps', 'StatefulSet'],
    ['apps', 'ControllerRevision'],
    ['', 'PersistentVolumeClaim'],
    ['', 'PersistentVolume'],
    ['storage.k8s.io', 'StorageClass'],
    ['', 'Node'],
    ['', 'Namespace'],
    ['', 'Service'],
    ['', 'Endpoints'],
    ['discovery.k8s.io', 'EndpointSlice'],
    ['', 'Event'],
    ['events.k8s.io', 'Event'],
    ['', 'ConfigMap'],
    ['', 'Secret'],
    ['', 'ServiceAccount'],
    ['coordination.k8s.io', 'Lease'],
    ['policy', 'PodDisruptionBudget'],
    ['networking.k8s.io', 'NetworkPolicy'],
    ['apiextensions.k8s.io', 'CustomResourceDefinition'],
  ];
  // JSON-ish objects shaped loosely like the kinds: known field names with arbitrary values.
  const names = [
    'metadata',
    'spec',
    'status',
    'name',
    'creationTimestamp',
    'deletionTimestamp',
    'labels',
    'annotations',
    'containers',
    'initContainers',
    'containerStatuses',
    'initContainerStatuses',
    'state',
    'lastState',
    'terminated',
    'waiting',
    'running',
    'finishedAt',
    'restartCount',
    'ready',
    'started',
    'restartPolicy',
    'conditions',
    'type',
    'reason',
    'replicas',
    'readyReplicas',
    'selector',
    'matchLabels',
    'matchExpressions',
    'template',
    'ports',
    'port',
    'nodePort',
    'clusterIPs',
    'externalIPs',
    'loadBalancer',
    'ingress',
    'subsets',
    'addresses',
    'capacity',
    'storage',
    'accessModes',
    'claimRef',
    'series',
    'count',
    'regarding',
    'involvedObject',
    'podSelector',
    'minAvailable',
    'ownerReferences',
    'controller',
    'data',
    'secrets',
  ];
  const key = fc.constantFrom(...names);
  const leaf = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom(
      '2024-05-01T11:00:00Z',
      'Always',
      'True',
      'Ready',
      'ClusterIP',
      'LoadBalancer',
      '1Gi',
    ),
    fc.integer({ min: -5, max: 1e6 }),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('node'), { maxLength: 3 }),
      fc.dictionary(key, tie('node'), { maxKeys: 5 }),
    ),
  })).node;
  const objectArb = fc.dictionary(key, value, { maxKeys: 6 }) as fc.Arbitrary<KubeObject>;

  it('renders every kind for arbitrary objects with one cell per column', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds),
        fc.array(objectArb, { maxLength: 4 }),
        ([group, kind], objects) => {
          const table = tableFor(def(group, kind), objects, { now: NOW });
          const width = table.columnDefinitions?.length ?? 0;
          assert.equal(table.rows.length, objects.length);
          for (const row of table.rows) assert.equal(row.cells.length, width);
          JSON.stringify(table);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('renders custom resources for arbitrary objects with one cell per column', () => {
    const d = crd([
      { name: 'A', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'B', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'C', type: 'string', jsonPath: '.status.conditions[0].type' },
      { name: 'D', type: 'boolean', jsonPath: '..ready' },
    ]);
    fc.assert(
      fc.property(fc.array(objectArb, { maxLength: 4 }), (objects) => {
        const table = tableFor(d, objects, { now: NOW });
        for (const row of table.rows) assert.equal(row.cells.length, 5);
      }),
      { numRuns: 1000 },
    );
  });
});
