import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageRegistry, ROOT_MESSAGES } from './registry.js';
import { compileTables, type MessageName, type MessageTables } from './schema.js';

describe('protobuf schema tables', () => {
  it('has a table for every message a root kind reaches, and no unreachable table', () => {
    const reached = new Set<MessageName>();
    const todo: MessageName[] = [
      ...Object.values(ROOT_MESSAGES).flatMap((kinds) => Object.values(kinds)),
      'meta.DeleteOptions',
    ];
    for (let name = todo.pop(); name !== undefined; name = todo.pop()) {
      if (reached.has(name)) continue;
      reached.add(name);
      const spec = messageRegistry.get(name);
      assert.ok(spec, `no table for ${name}`);
      for (const f of spec.fields) if (f.kind === 'message') todo.push(f.type as MessageName);
    }
    assert.deepEqual(
      [...messageRegistry.keys()].filter((n) => !reached.has(n)),
      [],
    );
  });

  it('uses only map value types whose entries are length-delimited', () => {
    for (const spec of messageRegistry.values()) {
      for (const f of spec.fields.filter((x) => x.map)) {
        assert.ok(
          f.kind !== 'scalar' || f.type === 'string' || f.type === 'bytes',
          `${spec.name}.${f.json}`,
        );
      }
    }
  });

  // Spot checks against upstream's Go types (k8s.io/api core/v1, apps/v1 types.go).
  const facts: { message: MessageName; no: number; json: string; type: string; flags: string }[] = [
    { message: 'core.Container', no: 1, json: 'name', type: 'string', flags: '' },
    { message: 'core.Container', no: 2, json: 'image', type: 'string', flags: 'o' },
    {
      message: 'core.Container',
      no: 8,
      json: 'resources',
      type: 'core.ResourceRequirements',
      flags: 'o',
    },
    { message: 'core.ContainerPort', no: 3, json: 'containerPort', type: 'int32', flags: '' },
    { message: 'core.ServicePort', no: 4, json: 'targetPort', type: 'IntOrString', flags: 'o' },
    { message: 'core.Secret', no: 2, json: 'data', type: 'bytes', flags: 'om' },
    { message: 'core.Volume', no: 2, json: '', type: 'core.VolumeSource', flags: 'i' },
    { message: 'apps.DeploymentSpec', no: 1, json: 'replicas', type: 'int32', flags: 'op' },
    {
      message: 'apps.DeploymentSpec',
      no: 2,
      json: 'selector',
      type: 'meta.LabelSelector',
      flags: 'p',
    },
    { message: 'meta.ObjectMeta', no: 8, json: 'creationTimestamp', type: 'Time', flags: 'o' },
    {
      message: 'meta.ObjectMeta',
      no: 10,
      json: 'deletionGracePeriodSeconds',
      type: 'int64',
      flags: 'op',
    },
    {
      message: 'policy.PodDisruptionBudgetStatus',
      no: 6,
      json: 'expectedPods',
      type: 'int32',
      flags: '',
    },
    // core/v1 types.go, discovery/v1 types.go, apiextensions/v1 types_jsonschema.go.
    { message: 'core.ResourceQuotaSpec', no: 1, json: 'hard', type: 'Quantity', flags: 'om' },
    {
      message: 'core.ResourceQuotaSpec',
      no: 3,
      json: 'scopeSelector',
      type: 'core.ScopeSelector',
      flags: 'op',
    },
    {
      message: 'core.LimitRangeSpec',
      no: 1,
      json: 'limits',
      type: 'core.LimitRangeItem',
      flags: 'r',
    },
    {
      message: 'core.LimitRangeItem',
      no: 6,
      json: 'maxLimitRequestRatio',
      type: 'Quantity',
      flags: 'om',
    },
    { message: 'core.Binding', no: 2, json: 'target', type: 'core.ObjectReference', flags: '' },
    { message: 'discovery.EndpointSlice', no: 4, json: 'addressType', type: 'string', flags: '' },
    { message: 'discovery.EndpointPort', no: 3, json: 'port', type: 'int32', flags: 'op' },
    {
      message: 'apiextensions.JSONSchemaProps',
      no: 9,
      json: 'maximum',
      type: 'double',
      flags: 'op',
    },
    {
      message: 'apiextensions.JSONSchemaProps',
      no: 13,
      json: 'maxLength',
      type: 'int64',
      flags: 'op',
    },
    {
      message: 'apiextensions.JSONSchemaProps',
      no: 38,
      json: 'x-kubernetes-preserve-unknown-fields',
      type: 'bool',
      flags: 'op',
    },
    {
      message: 'apiextensions.CustomResourceDefinitionVersion',
      no: 8,
      json: 'deprecationWarning',
      type: 'string',
      flags: 'op',
    },
  ];
  for (const f of facts) {
    it(`describes ${f.message} field ${f.no} as upstream does`, () => {
      const field = messageRegistry.get(f.message)?.byNumber.get(f.no);
      assert.ok(field);
      assert.equal(field.json, f.json);
      assert.equal(field.type, f.type);
      const flags = `${field.omitempty ? 'o' : ''}${field.pointer ? 'p' : ''}${field.repeated ? 'r' : ''}${field.map ? 'm' : ''}${field.inline ? 'i' : ''}`;
      assert.equal(flags, f.flags);
    });
  }

  const broken: { name: string; tables: MessageTables[]; message: RegExp }[] = [
    {
      name: 'a number twice',
      tables: [
        {
          'core.A': [
            [1, 'a', 'string'],
            [1, 'b', 'string'],
          ],
        },
      ],
      message: /field number 1 twice/,
    },
    {
      name: 'a JSON name twice',
      tables: [
        {
          'core.A': [
            [1, 'a', 'string'],
            [2, 'a', 'int32'],
          ],
        },
      ],
      message: /JSON name a twice/,
    },
    {
      name: 'unknown flags',
      tables: [{ 'core.A': [[1, 'a', 'string', 'x']] }],
      message: /unknown flags/,
    },
    {
      name: 'a slice map',
      tables: [{ 'core.A': [[1, 'a', 'string', 'rm']] }],
      message: /not both/,
    },
    {
      name: 'an inline scalar',
      tables: [{ 'core.A': [[1, '', 'string', 'i']] }],
      message: /inline/,
    },
    {
      name: 'a field without a name',
      tables: [{ 'core.A': [[1, '', 'string']] }],
      message: /no JSON name/,
    },
    {
      name: 'a missing message',
      tables: [{ 'core.A': [[1, 'b', 'core.B']] }],
      message: /no table for core.B/,
    },
    {
      name: 'a list of doubles',
      tables: [{ 'core.A': [[1, 'a', 'double', 'r']] }],
      message: /a double list/,
    },
    {
      name: 'a message twice',
      tables: [{ 'core.A': [] }, { 'core.A': [] }],
      message: /defined twice/,
    },
    {
      // Built at run time: a literal key without a group does not type-check as a table.
      name: 'a message name without a known group',
      tables: [Object.fromEntries([['Pod', []]])],
      message: /Pod: not a message name/,
    },
  ];
  for (const c of broken) {
    it(`rejects tables with ${c.name}`, () => {
      assert.throws(() => compileTables(...c.tables), c.message);
    });
  }
});
