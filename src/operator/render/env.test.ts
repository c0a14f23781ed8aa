/**
 * The member environment: operator variables first and fixed, user `CELLD_*` entries after
 * them, reserved names never overridden.
 *
 * @module
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type EnvVar, isUserEnvNameAllowed, renderEnv } from './env.js';
import type { FleetEnvVarView } from './fleet-view.js';
import { resolveFleet } from './fleet-view.js';
import { bucketFleet, persistentFleet, withSpec } from './testdata/fleets.js';

const names = (env: EnvVar[]): string[] => env.map((e) => e.name);
const value = (env: EnvVar[], name: string): string | undefined =>
  env.find((e) => e.name === name)?.value;

describe('renderEnv', () => {
  const operatorNames = names(renderEnv(resolveFleet(withSpec(bucketFleet, { env: [] }))));

  const cases: { name: string; env: FleetEnvVarView[]; user: EnvVar[] }[] = [
    { name: 'no user entries', env: [], user: [] },
    {
      name: 'user entries follow the operator, in their order',
      env: [
        { name: 'CELLD_B', value: '2' },
        { name: 'CELLD_A', value: '1' },
      ],
      user: [
        { name: 'CELLD_B', value: '2' },
        { name: 'CELLD_A', value: '1' },
      ],
    },
    {
      name: 'reserved names are dropped, the operator value stays',
      env: [
        { name: 'CELLD_BUCKET', value: 's3://elsewhere' },
        { name: 'CELLD_NODE', value: 'x' },
        { name: 'CELLD_MAX_RESIDENT_CELLS', value: '1' },
        { name: 'CELLD_OK', value: 'yes' },
      ],
      user: [{ name: 'CELLD_OK', value: 'yes' }],
    },
    {
      name: 'reserved prefixes and non-CELLD names are dropped',
      env: [
        { name: 'CELLD_OTEL_X', value: '1' },
        { name: 'CELLD_UNSAFE_FOO', value: '1' },
        { name: 'CELLD_TEST_X', value: '1' },
        { name: 'AWS_REGION', value: 'mars-1' },
        { name: 'celld_lower', value: '1' },
      ],
      user: [],
    },
    {
      name: 'a repeated name keeps its last value once',
      env: [
        { name: 'CELLD_X', value: '1' },
        { name: 'CELLD_X', value: '2' },
      ],
      user: [{ name: 'CELLD_X', value: '2' }],
    },
    {
      name: 'secret references are passed through',
      env: [{ name: 'CELLD_KEY', secretKeyRef: { name: 's', key: 'k', optional: true } }],
      user: [
        { name: 'CELLD_KEY', valueFrom: { secretKeyRef: { name: 's', key: 'k', optional: true } } },
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const env = renderEnv(resolveFleet(withSpec(bucketFleet, { env: c.env })));
      assert.deepEqual(names(env).slice(0, operatorNames.length), operatorNames);
      assert.deepEqual(env.slice(operatorNames.length), c.user);
      assert.equal(value(env, 'CELLD_BUCKET'), 's3://edge-cache');
      assert.equal(value(env, 'AWS_REGION'), 'us-east-1');
    });
  }

  it('defines every variable before a $(VAR) reference to it', () => {
    for (const fleet of [persistentFleet, bucketFleet]) {
      const env = renderEnv(resolveFleet(fleet));
      env.forEach((e, i) => {
        for (const [, ref] of (e.value ?? '').matchAll(/\$\(([A-Z_]+)\)/g)) {
          assert.ok(names(env.slice(0, i)).includes(ref as string), `${e.name} uses ${ref}`);
        }
      });
    }
  });

  const profiles = [
    {
      name: 'PersistentFleet',
      fleet: persistentFleet,
      node: 'metadata.name',
      advertise: '$(CELLD_NODE).orders-peers.shop.svc:8081',
      durability: 'fleet',
    },
    {
      name: 'Bucket',
      fleet: bucketFleet,
      node: 'metadata.uid',
      advertise: '$(POD_IP):8081',
      durability: 'bucket',
    },
  ];
  for (const p of profiles) {
    it(`identity and durability: ${p.name}`, () => {
      const env = renderEnv(resolveFleet(p.fleet));
      const node = env.find((e) => e.name === 'CELLD_NODE');
      assert.deepEqual(node?.valueFrom, { fieldRef: { apiVersion: 'v1', fieldPath: p.node } });
      assert.equal(value(env, 'CELLD_ADVERTISE'), p.advertise);
      assert.equal(value(env, 'CELLD_DURABILITY'), p.durability);
    });
  }

  it('an https endpoint does not allow plain HTTP', () => {
    const fleet = withSpec(bucketFleet, {
      storage: {
        bucket: 'b-1',
        region: 'us-east-1',
        endpoint: { url: 'https://s3.example.com', credentialsSecretName: 'k' },
      },
    });
    const env = renderEnv(resolveFleet(fleet));
    assert.equal(value(env, 'S3_ENDPOINT'), 'https://s3.example.com');
    assert.equal(value(env, 'AWS_ALLOW_HTTP'), undefined);
  });
});

describe('isUserEnvNameAllowed', () => {
  const cases: [string, boolean][] = [
    ['CELLD_LOG', true],
    ['CELLD_MAX_RSS_MB', true],
    ['CELLD_TTL_MS', false],
    ['CELLD_EXPORT_BUCKET', false],
    ['CELLD_STRICT_MODE', false],
    ['CELLD_1X', false],
    ['PATH', false],
  ];
  for (const [name, want] of cases) {
    it(`${name} → ${want}`, () => assert.equal(isUserEnvNameAllowed(name), want));
  }
});
