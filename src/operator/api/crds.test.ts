/**
 * The CRDs as data: the checked-in YAML is exactly what the generator writes, the shapes a
 * real cluster needs are there, and the pure helpers (env names, reservation names) behave.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { celldCrdFiles, celldCrds } from './crds.js';
import {
  ENV_NAME_MESSAGE,
  ENV_RESERVED_MESSAGE,
  ENV_RESERVED_PREFIX_MESSAGE,
  envNameProblem,
} from './env-names.js';

const DEPLOY = new URL('../../../deploy/crds/', import.meta.url);

describe('deploy/crds', () => {
  it('holds exactly the generated files, byte for byte (rerun scripts/gen-crds.ts)', () => {
    const generated = celldCrdFiles();
    const onDisk = readdirSync(DEPLOY).filter((f) => f.endsWith('.yaml'));
    assert.deepEqual(onDisk.sort(), Object.keys(generated).sort());
    for (const [file, text] of Object.entries(generated)) {
      assert.equal(readFileSync(new URL(file, DEPLOY), 'utf8'), text, file);
    }
  });

  it('parses back to celldCrds()', () => {
    const parsed = Object.values(celldCrdFiles()).map((t) => parse(t) as unknown);
    assert.deepEqual(parsed, celldCrds());
  });
});

describe('celldCrds', () => {
  it('returns fresh objects each call', () => {
    const a = celldCrds();
    (a[0]!.metadata as { name: string }).name = 'changed';
    assert.notEqual((celldCrds()[0]!.metadata as { name: string }).name, 'changed');
  });

  it('bounds every string and list so CEL cost estimates stay finite', () => {
    const unbounded: string[] = [];
    const walk = (node: Record<string, unknown>, path: string): void => {
      if (node.type === 'string' && node.maxLength === undefined && node.enum === undefined) {
        if (!/\.(apiVersion|kind)$/.test(path)) unbounded.push(path);
      }
      if (node.type === 'array' && node.maxItems === undefined) unbounded.push(path);
      for (const [k, v] of Object.entries((node.properties as Record<string, never>) ?? {})) {
        walk(v, `${path}.${k}`);
      }
      if (node.items) walk(node.items as Record<string, unknown>, `${path}[]`);
    };
    for (const crd of celldCrds()) {
      const version = (crd.spec as { versions: { schema: { openAPIV3Schema: never } }[] })
        .versions[0]!;
      walk(version.schema.openAPIV3Schema, (crd.metadata as { name: string }).name);
    }
    assert.deepEqual(unbounded, []);
  });
});

describe('envNameProblem', () => {
  const cases: Array<[string, string | undefined]> = [
    ['CELLD_LOG', undefined],
    ['CELLD_MAX_RSS_MB', undefined],
    ['CELLD_OTELX', ENV_RESERVED_PREFIX_MESSAGE],
    ['CELLD_EXPORT_BUCKET', ENV_RESERVED_PREFIX_MESSAGE],
    ['CELLD_TEST_MODE', ENV_RESERVED_PREFIX_MESSAGE],
    ['CELLD_NODE', ENV_RESERVED_MESSAGE],
    ['CELLD_SHUTDOWN_TOTAL_MS', ENV_RESERVED_MESSAGE],
    ['PATH', ENV_NAME_MESSAGE],
    ['CELLD_', ENV_NAME_MESSAGE],
    ['CELLD_1X', ENV_NAME_MESSAGE],
    ['celld_log', ENV_NAME_MESSAGE],
  ];
  for (const [name, want] of cases) {
    it(`${name} → ${want ?? 'allowed'}`, () => assert.equal(envNameProblem(name), want));
  }
});
