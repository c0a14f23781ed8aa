import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { configMapResource, secretResource } from './core-config.js';
import { serviceAccountResource } from './core-endpoints.js';
import { simulateCreate, simulateUpdate } from './harness.js';

const meta = { name: 'cfg', namespace: 'default' };
const KEY_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('ConfigMap', () => {
  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    {
      name: 'valid',
      input: { metadata: meta, data: { 'app.conf': 'x' }, binaryData: { blob: 'AAE=' } },
      want: [],
    },
    {
      name: 'bad key',
      input: { metadata: meta, data: { 'a/b': 'x' } },
      want: [`data[a/b]: Invalid value: "a/b": ${KEY_MSG}`],
    },
    {
      name: 'key in both maps',
      input: { metadata: meta, data: { k: 'x' }, binaryData: { k: 'AA==' } },
      want: [
        'data[k]: Invalid value: "k": duplicate of key present in binaryData',
        'binaryData[k]: Invalid value: "k": duplicate of key present in data',
      ],
    },
    {
      name: 'too big',
      input: { metadata: meta, data: { k: 'x'.repeat(1024 * 1024 + 1) } },
      want: [': Too long: may not be more than 1048576 bytes'],
    },
  ];
  for (const c of cases)
    it(c.name, () => assert.deepEqual(simulateCreate(configMapResource, c.input).messages, c.want));

  it('freezes data once immutable', () => {
    const stored = simulateCreate(configMapResource, {
      metadata: meta,
      data: { k: 'v' },
      immutable: true,
    }).object;
    assert.deepEqual(
      simulateUpdate(configMapResource, { ...stored, data: { k: 'w' }, immutable: false }, stored)
        .messages,
      [
        'immutable: Forbidden: field is immutable when `immutable` is set',
        'data: Forbidden: field is immutable when `immutable` is set',
      ],
    );
    const mutable = simulateCreate(configMapResource, { metadata: meta, data: { k: 'v' } }).object;
    assert.deepEqual(
      simulateUpdate(configMapResource, { ...mutable, data: { k: 'w' } }, mutable).messages,
      [],
    );
  });
});

describe('Secret', () => {
  it('defaults the type and folds stringData into data', () => {
    const { object, errors } = simulateCreate(secretResource, {
      metadata: meta,
      stringData: { password: 'hunter2' },
      data: { user: 'YWRtaW4=' },
    });
    assert.deepEqual(errors, []);
    assert.equal(object.type, 'Opaque');
    assert.deepEqual(object.data, { user: 'YWRtaW4=', password: 'aHVudGVyMg==' });
    assert.equal(object.stringData, undefined);
  });

  const cases: { name: string; input: KubeObject; want: string[] }[] = [
    {
      name: 'bad base64',
      input: { metadata: meta, data: { k: 'abc' } },
      want: ['data[k]: Invalid value: illegal base64 data at input byte 0'],
    },
    {
      name: 'bad key',
      input: { metadata: meta, data: { '..x': '' } },
      want: [`data[..x]: Invalid value: "..x": must not start with '..'`],
    },
    {
      name: 'tls needs both keys',
      input: { metadata: meta, type: 'kubernetes.io/tls', data: { 'tls.crt': 'YQ==' } },
      want: ['data[tls.key]: Required value'],
    },
    {
      name: 'service account token needs the account name',
      input: { metadata: meta, type: 'kubernetes.io/service-account-token' },
      want: ['metadata.annotations[kubernetes.io/service-account.name]: Required value'],
    },
  ];
  for (const c of cases)
    it(c.name, () => assert.deepEqual(simulateCreate(secretResource, c.input).messages, c.want));

  it('keeps the type immutable and selects on it', () => {
    const stored = simulateCreate(secretResource, { metadata: meta, data: {} }).object;
    assert.deepEqual(
      simulateUpdate(secretResource, { ...stored, type: 'example.com/x' }, stored).messages,
      ['type: Invalid value: "example.com/x": field is immutable'],
    );
    assert.deepEqual(secretResource.strategy.selectableFields?.(stored), { type: 'Opaque' });
  });
});

describe('ServiceAccount', () => {
  it('has only metadata rules', () => {
    assert.deepEqual(
      simulateCreate(serviceAccountResource, { metadata: { name: 'builder', namespace: 'ci' } })
        .messages,
      [],
    );
  });
});
