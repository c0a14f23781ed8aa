import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorText } from '../../api/field-error.js';
import type { KubeObject } from '../../api/object.js';
import { defaultCrd, validateCrd, validateCrdUpdate } from './index.js';

/** A realistic CRD: status and scale subresources, printer columns, defaults, a list-type map. */
function widgetCrd(): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wd'],
        categories: ['all'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          selectableFields: [{ jsonPath: '.spec.color' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'A widget',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  required: ['color'],
                  properties: {
                    replicas: { type: 'integer', minimum: 0, default: 1 },
                    color: { type: 'string', enum: ['red', 'blue'] },
                    port: {
                      'x-kubernetes-int-or-string': true,
                      anyOf: [{ type: 'integer' }, { type: 'string' }],
                    },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: {
                          name: { type: 'string' },
                          port: { type: 'integer', format: 'int32' },
                        },
                      },
                    },
                    template: {
                      type: 'object',
                      'x-kubernetes-embedded-resource': true,
                      'x-kubernetes-preserve-unknown-fields': true,
                    },
                    tags: {
                      type: 'array',
                      'x-kubernetes-list-type': 'set',
                      items: { type: 'string', pattern: '^[a-z]+$' },
                    },
                    mode: {
                      type: 'object',
                      default: { level: 'low' },
                      properties: { level: { type: 'string' } },
                    },
                  },
                  'x-kubernetes-validations': [
                    { rule: 'self.replicas <= 10', message: 'too many' },
                  ],
                },
                status: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, selector: { type: 'string' } },
                },
              },
            },
          },
        },
      ],
    },
    status: { storedVersions: ['v1'] },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: fixtures are edited as free-form JSON.
type Json = any;
type Mutate = (crd: { spec: Json; metadata: Json }) => void;

function broken(mutate: Mutate): KubeObject {
  const crd = widgetCrd();
  mutate(crd as unknown as Parameters<Mutate>[0]);
  return crd;
}

function schemaOf(crd: { spec: Json }): Json {
  return crd.spec.versions[0].schema.openAPIV3Schema;
}

const text = (errs: FieldError[]) => errs.map(fieldErrorText);
const SV = 'spec.validation.openAPIV3Schema';

interface Case {
  readonly name: string;
  readonly mutate: Mutate;
  readonly want: readonly string[];
}

const cases: Case[] = [
  {
    name: 'metadata.name must be plural.group',
    mutate: (c) => {
      c.metadata.name = 'gadgets.example.com';
    },
    want: [
      'metadata.name: Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    ],
  },
  {
    name: 'group needs a dot',
    mutate: (c) => {
      c.spec.group = 'example';
      c.metadata.name = 'widgets.example';
    },
    want: ['spec.group: Invalid value: "example": should be a domain with at least one dot'],
  },
  {
    name: 'scope',
    mutate: (c) => {
      c.spec.scope = 'Global';
    },
    want: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
  },
  {
    name: 'kind and listKind differ',
    mutate: (c) => {
      c.spec.names.listKind = 'Widget';
    },
    want: ['spec.names.listKind: Invalid value: "Widget": kind and listKind may not be the same'],
  },
  {
    name: 'a field without a type (schema shared by all versions: spec.validation)',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.size = { description: 'no type' };
    },
    want: [
      `${SV}.properties[spec].properties[size].type: Required value: must not be empty for specified object fields`,
    ],
  },
  {
    name: 'additionalProperties and properties',
    mutate: (c) => {
      schemaOf(c).properties.status.additionalProperties = { type: 'string' };
    },
    want: [
      `${SV}.properties[status].additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    ],
  },
  {
    name: 'a default of the wrong type',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.replicas.default = 'one';
    },
    want: [
      `${SV}.properties[spec].properties[replicas].default: Invalid value: "string":  in body must be of type integer: "string"`,
    ],
  },
  {
    name: 'a default with unknown fields',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.mode.default = { level: 'low', extra: 1 };
    },
    want: [
      `${SV}.properties[spec].properties[mode].default: Invalid value: {"level":"low","extra":1}: must not have unknown fields`,
    ],
  },
  {
    name: 'defaults are forbidden in top-level metadata',
    mutate: (c) => {
      schemaOf(c).properties.metadata.default = { name: 'x' };
    },
    want: [`${SV}.properties[metadata].default: Forbidden: must not be set in top-level metadata`],
  },
  {
    name: 'root metadata may only restrict name and generateName',
    mutate: (c) => {
      schemaOf(c).properties.metadata.properties = { labels: { type: 'object' } };
    },
    want: [
      `${SV}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    ],
  },
  {
    name: 'list map keys need a default or must be required',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.ports.items.required = [];
    },
    want: [
      `${SV}.properties[spec].properties[ports].items.properties[name].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
    ],
  },
  {
    name: 'list-type on a non-array',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.labels['x-kubernetes-list-type'] = 'set';
    },
    want: [
      `${SV}.properties[spec].properties[labels].type: Invalid value: "object": must be array if x-kubernetes-list-type is specified`,
    ],
  },
  {
    name: 'uniqueItems is forbidden',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.tags.uniqueItems = true;
    },
    want: [
      `${SV}.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    ],
  },
  {
    name: 'a Perl-only pattern',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.tags.items.pattern = '^(?=a)';
    },
    want: [
      `${SV}.properties[spec].properties[tags].items.pattern: Invalid value: "^(?=a)": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: \`(?=\``,
    ],
  },
  {
    name: 'junctors carry value validations only',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.color.anyOf = [{ type: 'string', maxLength: 3 }];
    },
    want: [
      `${SV}.properties[spec].properties[color].anyOf[0].type: Forbidden: must be empty to be structural`,
    ],
  },
  {
    name: 'with a status subresource the root takes only some keywords',
    mutate: (c) => {
      schemaOf(c).minProperties = 1;
    },
    want: [
      'spec.validation.openAPIV3Schema: Invalid value: OMITTED: only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
    ],
  },
  {
    name: 'unsupported keywords',
    mutate: (c) => {
      schemaOf(c).properties.spec.properties.color.$ref = '#/definitions/x';
    },
    want: [`${SV}.properties[spec].properties[color].$ref: Forbidden: $ref is not supported`],
  },
  {
    name: 'printer column type and path',
    mutate: (c) => {
      c.spec.versions[0].additionalPrinterColumns[0].type = 'int';
      c.spec.versions[0].additionalPrinterColumns[0].jsonPath = 'spec.replicas';
    },
    want: [
      'spec.additionalPrinterColumns[0].type: Invalid value: "int": must be one of boolean,date,integer,number,string',
      'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.replicas": must be a simple json path starting with .',
    ],
  },
  {
    name: 'scale paths',
    mutate: (c) => {
      c.spec.versions[0].subresources.scale.specReplicasPath = '.status.replicas';
    },
    want: [
      'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
    ],
  },
  {
    name: 'selectable fields',
    mutate: (c) => {
      c.spec.versions[0].selectableFields = [
        { jsonPath: '.spec.labels' },
        { jsonPath: '.spec.nope' },
      ];
    },
    want: [
      'spec.versions[0].selectableFields[0].jsonPath: Invalid value: ".spec.labels": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      'spec.versions[0].selectableFields[1].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
    ],
  },
  {
    name: 'schemas are required',
    mutate: (c) => {
      delete c.spec.versions[0].schema;
      c.spec.versions[0].selectableFields = [];
    },
    want: ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required'],
  },
  {
    name: 'x-kubernetes-validations statics',
    mutate: (c) => {
      schemaOf(c).properties.spec['x-kubernetes-validations'] = [
        { rule: ' ' },
        { rule: 'a', reason: 'Nope' },
      ];
    },
    want: [
      `${SV}.properties[spec].x-kubernetes-validations[0].rule: Required value: rule is not specified`,
      `${SV}.properties[spec].x-kubernetes-validations[1].reason: Unsupported value: "Nope": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    ],
  },
  {
    name: 'protected groups need API approval',
    mutate: (c) => {
      c.spec.group = 'widgets.k8s.io';
      c.metadata.name = 'widgets.widgets.k8s.io';
    },
    want: [
      'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
    ],
  },
];

function withoutBigValues(errs: FieldError[]): string[] {
  // The root schema is printed as a value upstream (a Go struct dump); compare the rest.
  return errs.map((e) =>
    typeof e.badValue === 'object' &&
    e.badValue !== null &&
    !Array.isArray(e.badValue) &&
    'properties' in e.badValue
      ? fieldErrorText({ ...e, badValue: 'OMITTED' }).replace('"OMITTED"', 'OMITTED')
      : fieldErrorText(e),
  );
}

describe('validateCrd', () => {
  it('accepts a realistic CRD', () => {
    assert.deepEqual(text(validateCrd(widgetCrd())), []);
  });

  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(withoutBigValues(validateCrd(broken(c.mutate))), c.want);
    });
  }

  it('reports exactly one storage version with the versions as the value', () => {
    const crd = broken((c) => {
      c.spec.versions.push({ ...structuredClone(c.spec.versions[0]), name: 'v2' });
    });
    const errs = validateCrd(crd).filter((e) => e.field === 'spec.versions');
    assert.deepEqual(
      errs.map((e) => [e.type, e.detail]),
      [['FieldValueInvalid', 'must have exactly one version marked as storage version']],
    );
  });

  it('reports per-version schema errors when the versions differ', () => {
    const crd = broken((c) => {
      const v2 = structuredClone(c.spec.versions[0]);
      v2.name = 'v2';
      v2.storage = false;
      v2.schema.openAPIV3Schema.properties.spec.properties.size = {};
      c.spec.versions.push(v2);
    });
    assert.deepEqual(text(validateCrd(crd)), [
      'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[size].type: Required value: must not be empty for specified object fields',
    ]);
  });

  it('passes CEL rules to the compile hook only for structurally valid schemas', () => {
    const seen: string[] = [];
    validateCrd(widgetCrd(), {
      compileRules: (_s, p) => {
        seen.push(String(p));
        return [];
      },
    });
    assert.deepEqual(seen, [`${SV}.properties[spec]`]);
  });
});

describe('validateCrdUpdate', () => {
  const established = (crd: KubeObject): KubeObject => ({
    ...crd,
    status: { ...(crd.status as object), conditions: [{ type: 'Established', status: 'True' }] },
  });

  it('keeps group and plural; scope and kind once established', () => {
    const old = established(widgetCrd());
    const next = broken((c) => {
      c.spec.scope = 'Cluster';
      c.spec.group = 'other.com';
      c.metadata.name = 'widgets.other.com';
    });
    assert.deepEqual(text(validateCrdUpdate(next, old)), [
      'spec.scope: Invalid value: "Cluster": field is immutable',
      'spec.group: Invalid value: "other.com": field is immutable',
    ]);
  });

  it('allows scope changes before the CRD is established', () => {
    const next = broken((c) => {
      c.spec.scope = 'Cluster';
    });
    assert.deepEqual(text(validateCrdUpdate(next, widgetCrd())), []);
  });

  it('keeps stored versions in spec.versions', () => {
    const next = broken((c) => {
      c.spec.versions[0].name = 'v2';
    });
    (next.status as { storedVersions: string[] }).storedVersions = ['v1', 'v2'];
    assert.deepEqual(text(validateCrdUpdate(next, widgetCrd())), [
      'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
    ]);
  });
});

describe('defaultCrd', () => {
  it('fills singular, listKind, conversion and stored versions, idempotently', () => {
    const crd: KubeObject = {
      spec: {
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [{ name: 'v1', storage: true }],
      },
    };
    const once = defaultCrd(crd);
    assert.deepEqual(once.spec, {
      names: { plural: 'widgets', kind: 'Widget', singular: 'widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', storage: true }],
      conversion: { strategy: 'None' },
    });
    assert.deepEqual(once.status, { storedVersions: ['v1'] });
    assert.deepEqual(defaultCrd(structuredClone(once)), once);
  });
});
