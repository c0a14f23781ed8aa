import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { type BuiltinSchemas, loadBuiltinSchemas } from './builtin/index.js';
import * as goTexts from './go-decode-texts.js';
import { SchemaNavigator } from './navigator.js';
import { arbitraryFromSchema } from './testing/arbitrary-object.js';
import {
  base64ErrorIndex,
  findTypeError,
  timeParseError,
  typeErrorMessage,
} from './type-errors.js';
import type { Schema } from './types.js';

let builtin: BuiltinSchemas;
before(async () => {
  builtin = await loadBuiltinSchemas();
});

type Kind = 'Deployment' | 'Pod' | 'Service' | 'ConfigMap' | 'Lease';
const GVK: Readonly<Record<Kind, { group: string; version: string; kind: string }>> = {
  Deployment: { group: 'apps', version: 'v1', kind: 'Deployment' },
  Pod: { group: '', version: 'v1', kind: 'Pod' },
  Service: { group: '', version: 'v1', kind: 'Service' },
  ConfigMap: { group: '', version: 'v1', kind: 'ConfigMap' },
  Lease: { group: 'coordination.k8s.io', version: 'v1', kind: 'Lease' },
};

function rootOf(kind: Kind): Schema {
  const schema = builtin.schemaFor(GVK[kind]);
  assert.ok(schema, `schema of ${kind}`);
  return schema;
}

function check(kind: Kind, value: unknown): string | undefined {
  return findTypeError(value, rootOf(kind), builtin.navigator);
}

const QUANTITY_ERROR =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const TIME_LAYOUT = '"2006-01-02T15:04:05Z07:00"';

function deployment(podSpec: Record<string, unknown>, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { ...spec, template: { spec: podSpec } },
  };
}

function container(fields: Record<string, unknown>) {
  return { containers: [{ name: 'c', image: 'nginx', ...fields }] };
}

function pod(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...metadata }, spec };
}

function service(spec: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec };
}

function configMap(fields: Record<string, unknown>) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...fields };
}

const field = (v: string, at: string, type: string) =>
  `json: cannot unmarshal ${v} into Go struct field ${at} of type ${type}`;
const goValue = (v: string, type: string) =>
  `json: cannot unmarshal ${v} into Go value of type ${type}`;

const CASES: readonly [name: string, kind: Kind, value: unknown, want: string | undefined][] = [
  // Deployment
  [
    'bool into string (upstream example)',
    'Deployment',
    deployment(container({ env: [{ name: 'A' }, { name: true }] })),
    field('bool', 'EnvVar.spec.template.spec.containers.env.name', 'string'),
  ],
  [
    'string into int32',
    'Deployment',
    deployment({}, { replicas: '3' }),
    field('string', 'DeploymentSpec.spec.replicas', 'int32'),
  ],
  [
    'fraction into int32',
    'Deployment',
    deployment({}, { replicas: 1.5 }),
    field('number 1.5', 'DeploymentSpec.spec.replicas', 'int32'),
  ],
  [
    'out-of-range int32',
    'Deployment',
    deployment({}, { replicas: 3_000_000_000 }),
    field('number 3000000000', 'DeploymentSpec.spec.replicas', 'int32'),
  ],
  [
    'object into string',
    'Deployment',
    deployment(container({ image: { name: 'x' } })),
    field('object', 'Container.spec.template.spec.containers.image', 'string'),
  ],
  [
    'array into map',
    'Deployment',
    { ...deployment({}), metadata: { name: 'd', labels: ['a'] } },
    field('array', 'ObjectMeta.metadata.labels', 'map[string]string'),
  ],
  [
    'number into map value (no key in the path)',
    'Deployment',
    { ...deployment({}), metadata: { name: 'd', labels: { app: 5 } } },
    field('number', 'ObjectMeta.metadata.labels', 'string'),
  ],
  [
    'string into struct',
    'Deployment',
    deployment('x' as unknown as Record<string, unknown>),
    field('string', 'PodTemplateSpec.spec.template.spec', 'v1.PodSpec'),
  ],
  [
    'object into list of structs',
    'Deployment',
    deployment({ containers: { name: 'c' } }),
    field('object', 'PodSpec.spec.template.spec.containers', '[]v1.Container'),
  ],
  [
    'array into a root field struct',
    'Deployment',
    { kind: 'Deployment', spec: [] },
    field('array', 'Deployment.spec', 'v1.DeploymentSpec'),
  ],
  [
    'named string type',
    'Deployment',
    deployment(container({ ports: [{ containerPort: 80, protocol: 6 }] })),
    field('number', 'ContainerPort.spec.template.spec.containers.ports.protocol', 'v1.Protocol'),
  ],
  [
    'named element type of a list',
    'Deployment',
    deployment(container({ securityContext: { capabilities: { add: ['NET_ADMIN', 1] } } })),
    field(
      'number',
      'Capabilities.spec.template.spec.containers.securityContext.capabilities.add',
      'v1.Capability',
    ),
  ],
  [
    'int-or-string with an object',
    'Deployment',
    deployment({}, { strategy: { rollingUpdate: { maxSurge: { a: 1 } } } }),
    goValue('object', 'int32'),
  ],
  [
    'int-or-string with a fraction',
    'Deployment',
    deployment({}, { strategy: { rollingUpdate: { maxUnavailable: 2.5 } } }),
    goValue('number 2.5', 'int32'),
  ],
  [
    'the first mismatch in document order wins',
    'Deployment',
    deployment(container({ env: [{ name: true }] }), { replicas: 'x' }),
    field('string', 'DeploymentSpec.spec.replicas', 'int32'),
  ],
  [
    'an UnmarshalJSON error wins over an earlier mismatch',
    'Deployment',
    deployment(container({ resources: { limits: { cpu: 'lots' } } }), { replicas: 'x' }),
    QUANTITY_ERROR,
  ],
  [
    'valid deployment',
    'Deployment',
    deployment(container({ ports: [{ containerPort: 80 }] })),
    undefined,
  ],
  // Pod
  [
    'bad quantity',
    'Pod',
    pod(container({ resources: { limits: { memory: '1 GB' } } })),
    QUANTITY_ERROR,
  ],
  [
    'quantity from a bool',
    'Pod',
    pod(container({ resources: { requests: { cpu: true } } })),
    QUANTITY_ERROR,
  ],
  [
    'quantity from an object',
    'Pod',
    pod(container({ resources: { requests: { cpu: {} } } })),
    QUANTITY_ERROR,
  ],
  [
    'quantity numbers and padded strings',
    'Pod',
    pod(container({ resources: { limits: { cpu: 0.5, memory: ' 1Gi ' } } })),
    undefined,
  ],
  [
    'array into a named map type',
    'Pod',
    pod(container({ resources: { limits: ['1'] } })),
    field('array', 'ResourceRequirements.spec.containers.resources.limits', 'v1.ResourceList'),
  ],
  [
    'bad time',
    'Pod',
    pod(container({}), { creationTimestamp: 'yesterday' }),
    `parsing time "yesterday" as ${TIME_LAYOUT}: cannot parse "yesterday" as "2006"`,
  ],
  [
    'time from a number',
    'Pod',
    pod(container({}), { creationTimestamp: 5 }),
    goValue('number', 'string'),
  ],
  [
    'int64 out of range',
    'Pod',
    pod({ ...container({}), terminationGracePeriodSeconds: 1e19 }),
    field('number 10000000000000000000', 'PodSpec.spec.terminationGracePeriodSeconds', 'int64'),
  ],
  [
    'string into bool',
    'Pod',
    pod({ ...container({}), hostNetwork: 'true' }),
    field('string', 'PodSpec.spec.hostNetwork', 'bool'),
  ],
  [
    'probe port int-or-string with a bool',
    'Pod',
    pod(container({ livenessProbe: { httpGet: { port: true } } })),
    goValue('bool', 'int32'),
  ],
  ['root of the wrong type', 'Pod', [], goValue('array', 'v1.Pod')],
  ['root field', 'Pod', { kind: 5 }, field('number', 'Pod.kind', 'string')],
  [
    'types.UID',
    'Pod',
    pod(container({}), { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 1 }] }),
    field('number', 'OwnerReference.metadata.ownerReferences.uid', 'types.UID'),
  ],
  [
    'unknown fields are not type-checked',
    'Pod',
    pod({ ...container({}), bogus: { x: 1 } }),
    undefined,
  ],
  // Service
  [
    'string into int32 in a list',
    'Service',
    service({ ports: [{ port: '80' }] }),
    field('string', 'ServicePort.spec.ports.port', 'int32'),
  ],
  [
    'targetPort as a bool',
    'Service',
    service({ ports: [{ port: 80, targetPort: false }] }),
    goValue('bool', 'int32'),
  ],
  [
    'targetPort name and number',
    'Service',
    service({
      ports: [
        { port: 80, targetPort: 'http' },
        { port: 81, targetPort: 8081 },
      ],
    }),
    undefined,
  ],
  [
    'named type',
    'Service',
    service({ type: 1 }),
    field('number', 'ServiceSpec.spec.type', 'v1.ServiceType'),
  ],
  [
    'map value',
    'Service',
    service({ selector: { app: 1 } }),
    field('number', 'ServiceSpec.spec.selector', 'string'),
  ],
  // ConfigMap
  [
    'data value',
    'ConfigMap',
    configMap({ data: { a: 1 } }),
    field('number', 'ConfigMap.data', 'string'),
  ],
  [
    'data as array',
    'ConfigMap',
    configMap({ data: [] }),
    field('array', 'ConfigMap.data', 'map[string]string'),
  ],
  [
    'immutable as a string',
    'ConfigMap',
    configMap({ immutable: 'yes' }),
    field('string', 'ConfigMap.immutable', 'bool'),
  ],
  [
    'binaryData not base64',
    'ConfigMap',
    configMap({ binaryData: { a: '!!!!' } }),
    'illegal base64 data at input byte 0',
  ],
  [
    'binaryData short padding',
    'ConfigMap',
    configMap({ binaryData: { a: 'YQ=' } }),
    'illegal base64 data at input byte 3',
  ],
  [
    'binaryData number',
    'ConfigMap',
    configMap({ binaryData: { a: 5 } }),
    field('number', 'ConfigMap.binaryData', '[]uint8'),
  ],
  [
    'binaryData valid',
    'ConfigMap',
    configMap({ binaryData: { a: 'YQ==', b: 'YWJj', c: '' } }),
    undefined,
  ],
  // MicroTime
  [
    'MicroTime needs microseconds',
    'Lease',
    { kind: 'Lease', spec: { renewTime: '2024-01-01T00:00:00Z' } },
    'parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
  ],
  [
    'MicroTime valid',
    'Lease',
    { kind: 'Lease', spec: { renewTime: '2024-01-01T00:00:00.123456Z' } },
    undefined,
  ],
];

const NULLS: readonly [name: string, kind: Kind, value: unknown][] = [
  [
    'struct',
    'Deployment',
    deployment(null as unknown as Record<string, unknown>, { replicas: null, selector: null }),
  ],
  [
    'strings, maps and list items',
    'Deployment',
    {
      ...deployment({ containers: [null, { name: null, env: null }] }),
      metadata: { labels: { a: null }, annotations: null },
    },
  ],
  [
    'int-or-string, quantity, time',
    'Pod',
    pod(
      container({
        livenessProbe: { httpGet: { port: null } },
        resources: { limits: { cpu: null } },
      }),
      { creationTimestamp: null, deletionTimestamp: null },
    ),
  ],
  [
    'service ports',
    'Service',
    service({ ports: [{ port: null, targetPort: null }], type: null, selector: null }),
  ],
  [
    'configmap',
    'ConfigMap',
    configMap({ data: { a: null }, binaryData: { b: null }, immutable: null }),
  ],
  ['root', 'Pod', null],
];

describe('findTypeError', () => {
  for (const [name, kind, value, want] of CASES) {
    it(`${kind}: ${name}`, () => assert.equal(check(kind, value), want));
  }
  for (const [name, kind, value] of NULLS) {
    it(`${kind}: null accepted in ${name}`, () => assert.equal(check(kind, value), undefined));
  }

  it('names the root struct when given a $ref', () => {
    const ref = { $ref: '#/components/schemas/io.k8s.api.core.v1.ConfigMap' };
    assert.equal(
      findTypeError({ data: 1 }, ref, builtin.navigator),
      field('number', 'ConfigMap.data', 'map[string]string'),
    );
  });

  it('is reusable after an error (no state leaks between calls)', () => {
    assert.notEqual(check('Pod', pod({ hostNetwork: 1 })), undefined);
    assert.equal(check('Pod', pod(container({}))), undefined);
  });
});

describe('typeErrorMessage', () => {
  it('prefixes like the apiserver', () =>
    assert.equal(
      typeErrorMessage('Deployment', 'v1', 'Deployment', 'x'),
      'Deployment in version "v1" cannot be handled as a Deployment: x',
    ));
});

describe('Go texts re-exported from go-decode-texts', () => {
  it('are the same functions', () => {
    assert.equal(base64ErrorIndex, goTexts.base64ErrorIndex);
    assert.equal(timeParseError, goTexts.timeParseError);
  });
});

describe('findTypeError over generated objects', () => {
  /**
   * Generation sees quantities as valid quantity strings: the generic generator draws `a`…`c`
   * for the untyped Quantity schema, which upstream rightly rejects.
   */
  function generationNavigator(): SchemaNavigator {
    return new SchemaNavigator({
      ...builtin.components,
      'io.k8s.apimachinery.pkg.api.resource.Quantity': {
        type: 'string',
        enum: ['1', '100m', '2Gi'],
      },
    });
  }

  for (const kind of ['Deployment', 'Pod'] as const) {
    it(`${kind} objects have no type error`, () => {
      const name = builtin.nameOf(GVK[kind]);
      assert.ok(name);
      const arb = arbitraryFromSchema(
        { $ref: `#/components/schemas/${name}` },
        generationNavigator(),
        {
          smallValues: false,
          minProperties: 2,
        },
      );
      fc.assert(
        fc.property(arb, (obj) =>
          assert.equal(findTypeError(obj, rootOf(kind), builtin.navigator), undefined),
        ),
        { numRuns: 150 },
      );
    });
  }

  it('a generated Pod with one field replaced by a wrong type is caught', () => {
    const arb = arbitraryFromSchema(rootOf('Pod'), generationNavigator(), { minProperties: 1 });
    fc.assert(
      fc.property(
        arb,
        fc.constantFrom(['object', {}], ['array', []], ['string', 'x'], ['number', 1]),
        (obj, [kind, bad]) => {
          const spec = (obj as Record<string, unknown>).spec;
          fc.pre(typeof spec === 'object' && spec !== null);
          const broken = { ...(obj as object), spec: { ...(spec as object), hostNetwork: bad } };
          assert.equal(
            findTypeError(broken, rootOf('Pod'), builtin.navigator),
            field(kind, 'PodSpec.spec.hostNetwork', 'bool'),
          );
        },
      ),
      { numRuns: 50 },
    );
  });
});
