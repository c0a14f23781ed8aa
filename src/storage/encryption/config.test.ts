import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EncryptionConfigError,
  parseEncryptionConfiguration,
  parseGroupResource,
} from './config.js';
import { buildTransformers } from './providers.js';

const K32 = Buffer.alloc(32, 1).toString('base64');
const K16 = Buffer.alloc(16, 1).toString('base64');
const HEAD = 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n';

/** A one-element configuration: `resources` and `providers` as YAML flow text. */
const one = (resources: string, providers: string) =>
  `${HEAD}resources:\n  - resources: ${resources}\n    providers: ${providers}\n`;

describe('parseEncryptionConfiguration', () => {
  it("reads upstream's documented example (YAML)", () => {
    const text = `${HEAD}resources:
  - resources:
      - secrets
      - configmaps
      - pandas.awesome.bears.example
    providers:
      - aescbc:
          keys:
            - name: key1
              secret: ${K32}
            - name: key2
              secret: ${K16}
      - secretbox:
          keys:
            - name: key1
              secret: ${K32}
      - identity: {}
  - resources: ['*.apps']
    providers: [{ aesgcm: { keys: [{ name: g, secret: ${K16} }] } }]
`;
    const config = parseEncryptionConfiguration(text);
    assert.deepEqual(config.resources[0]?.resources, [
      'secrets',
      'configmaps',
      'pandas.awesome.bears.example',
    ]);
    assert.deepEqual(
      config.resources[0]?.providers.map((p) => Object.keys(p)[0]),
      ['aescbc', 'secretbox', 'identity'],
    );
    assert.deepEqual(config.resources[1]?.providers, [
      { aesgcm: { keys: [{ name: 'g', secret: K16 }] } },
    ]);
  });

  it('reads JSON', () => {
    const config = parseEncryptionConfiguration(
      JSON.stringify({
        apiVersion: 'apiserver.config.k8s.io/v1',
        kind: 'EncryptionConfiguration',
        resources: [{ resources: ['*.*'], providers: [{ identity: {} }] }],
      }),
    );
    assert.deepEqual(config.resources, [{ resources: ['*.*'], providers: [{ identity: {} }] }]);
  });

  const invalid: [string, string, string][] = [
    ['an empty file', '  \n', 'encryption provider configuration file "f.yaml" is empty'],
    [
      'another kind',
      'apiVersion: v1\nkind: EncryptionConfig\nresources: []\n',
      'error while parsing file: no kind "EncryptionConfig" is registered for version "v1"; expected apiVersion apiserver.config.k8s.io/v1, kind EncryptionConfiguration',
    ],
    [
      'no resources',
      HEAD,
      'error while parsing file: resources: Required value: at least one resources is required',
    ],
    [
      'empty lists',
      one('[]', '[]'),
      'error while parsing file: [resources[0].resources: Required value: at least one resources[0].resources is required, resources[0].providers: Required value: at least one resources[0].providers is required]',
    ],
    [
      'a short AES key',
      one(
        '[secrets]',
        `[{ aescbc: { keys: [{ name: k, secret: ${Buffer.alloc(8).toString('base64')} }] } }]`,
      ),
      'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 8, expected one of [16 24 32]',
    ],
    [
      'a 16-byte secretbox key',
      one('[secrets]', `[{ secretbox: { keys: [{ name: k, secret: ${K16} }] } }]`),
      'error while parsing file: resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
    ],
    [
      'a secret not in base64',
      one('[secrets]', '[{ aesgcm: { keys: [{ name: k, secret: "not base64!" }] } }]'),
      'error while parsing file: resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
    ],
    [
      'a key without name or secret',
      one('[secrets]', '[{ aescbc: { keys: [{}] } }]'),
      'error while parsing file: [resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Required value: secret is a mandatory field for a key]',
    ],
    [
      'no keys',
      one('[secrets]', '[{ aescbc: { keys: [] } }]'),
      'error while parsing file: resources[0].providers[0].aescbc.keys: Required value: at least one keys is required',
    ],
    [
      'two providers in one element',
      one('[secrets]', `[{ identity: {}, aescbc: { keys: [{ name: k, secret: ${K32} }] } }]`),
      'error while parsing file: resources[0].providers[0]: Invalid value: {"identity":{},"aescbc":{"keys":[{"name":"k","secret":"REDACTED"}]}}: more than one provider specified in a single element, should split into different list elements',
    ],
    [
      'an unknown provider',
      one('[secrets]', '[{ aes: {} }]'),
      'error while parsing file: resources[0].providers[0]: Invalid value: {"aes":{}}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
    ],
    [
      'kms',
      one('[secrets]', '[{ kms: { name: vault, endpoint: "unix:///kms.sock" } }]'),
      'error while parsing file: resources[0].providers[0].kms: Invalid value: "vault": KMS providers are not supported by fleetyard (there is no KMS plugin to call); use aescbc, aesgcm, secretbox or identity',
    ],
    [
      'resource names',
      one(
        "[Secrets, '*', serviceipallocations, '*.events.k8s.io', deployments.extensions, 'pods.*']",
        '[{ identity: {} }]',
      ),
      `error while parsing file: [${[
        // '*' is the core group's wildcard to the overlap check, which runs first.
        `resources[0].resources: Invalid value: ["Secrets","*","serviceipallocations","*.events.k8s.io","deployments.extensions","pods.*"]: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`,
        'resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters',
        `resources[0].resources[1]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`,
        'resources[0].resources[2]: Invalid value: "serviceipallocations": resources which do not have REST API/s cannot be encrypted',
        `resources[0].resources[3]: Invalid value: "*.events.k8s.io": '*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file`,
        `resources[0].resources[4]: Invalid value: "deployments.extensions": 'extensions' group has been removed and cannot be used for encryption`,
        'resources[0].resources[5]: Invalid value: "pods.*": encrypting the same resource across groups is not supported',
      ].join(', ')}]`,
    ],
    [
      'a duplicate',
      one('[secrets, secrets]', '[{ identity: {} }]'),
      'error while parsing file: resources[0].resources: Invalid value: ["secrets","secrets"]: the same resource cannot be specified multiple times',
    ],
    [
      'an overlap',
      one("[secrets, '*.']", '[{ identity: {} }]'),
      `error while parsing file: resources[0].resources: Invalid value: ["secrets","*."]: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`,
    ],
    [
      'a rule masked by an earlier wildcard',
      `${HEAD}resources:\n  - { resources: ['*.apps'], providers: [{ identity: {} }] }\n  - { resources: [deployments.apps], providers: [{ identity: {} }] }\n`,
      'resource "deployments.apps" is masked by earlier rule "*.apps"',
    ],
    [
      'a rule masked by *.*',
      `${HEAD}resources:\n  - { resources: ['*.*'], providers: [{ identity: {} }] }\n  - { resources: [secrets], providers: [{ identity: {} }] }\n`,
      'resource "secrets" is masked by earlier rule "*.*"',
    ],
  ];
  for (const [name, text, message] of invalid) {
    it(`refuses ${name} with upstream's message`, () => {
      assert.throws(
        () => parseEncryptionConfiguration(text, 'f.yaml'),
        (err: unknown) => err instanceof EncryptionConfigError && err.message === message,
        message,
      );
    });
  }

  it('never puts a key secret in an error message', () => {
    const text = one(
      '[secrets]',
      `[{ identity: {}, aescbc: { keys: [{ name: k, secret: ${K32} }] } }]`,
    );
    assert.throws(
      () => parseEncryptionConfiguration(text),
      (err: unknown) => err instanceof Error && !err.message.includes(K32),
    );
  });
});

describe('resource matching', () => {
  it('parses group/resource as schema.ParseGroupResource', () => {
    assert.deepEqual(
      ['secrets', 'deployments.apps', '*.', '*.*', 'foo.example.com'].map(parseGroupResource),
      [
        { group: '', resource: 'secrets' },
        { group: 'apps', resource: 'deployments' },
        { group: '', resource: '*' },
        { group: '*', resource: '*' },
        { group: 'example.com', resource: 'foo' },
      ],
    );
  });

  it('prefers the exact rule, then *.group, then *.*; unnamed resources get none', () => {
    const rule = (resources: string, name: string) =>
      `  - { resources: ${resources}, providers: [{ aescbc: { keys: [{ name: ${name}, secret: ${K32} }] } }] }\n`;
    const config = parseEncryptionConfiguration(
      `${HEAD}resources:\n${rule('[secrets]', 'exact')}${rule("['*.']", 'core')}${rule("['*.*']", 'any')}`,
    );
    const t = buildTransformers(config);
    const keyOf = (group: string, resource: string) =>
      t.forResource({ group, resource })?.toStorage('x', '/k').split(':')[4];
    assert.deepEqual(
      [keyOf('', 'secrets'), keyOf('', 'configmaps'), keyOf('apps', 'deployments')],
      ['exact', 'core', 'any'],
    );
    const only = buildTransformers(
      parseEncryptionConfiguration(one('[secrets]', '[{ identity: {} }]')),
    );
    assert.equal(only.forResource({ group: '', resource: 'configmaps' }), undefined);
  });

  it('gives a resource named twice both elements’ providers, the first element’s writing', () => {
    const config = parseEncryptionConfiguration(
      `${HEAD}resources:\n  - { resources: [secrets], providers: [{ aesgcm: { keys: [{ name: a, secret: ${K32} }] } }] }\n  - { resources: [secrets], providers: [{ aescbc: { keys: [{ name: b, secret: ${K32} }] } }] }\n`,
    );
    const t = buildTransformers(config).forResource({ group: '', resource: 'secrets' })!;
    const cbcOnly = buildTransformers(
      parseEncryptionConfiguration(
        one('[secrets]', `[{ aescbc: { keys: [{ name: b, secret: ${K32} }] } }]`),
      ),
    ).forResource({ group: '', resource: 'secrets' })!;
    assert.ok(t.toStorage('x', '/k').startsWith('k8s:enc:aesgcm:v1:a:'));
    assert.equal(t.fromStorage(cbcOnly.toStorage('y', '/k'), '/k'), 'y');
  });
});
