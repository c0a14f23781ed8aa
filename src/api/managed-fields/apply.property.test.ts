import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { deepEqual, type KubeObject } from '../object.js';
import { loadBuiltinSchemas } from '../schema/builtin/index.js';
import type { SchemaNavigator } from '../schema/navigator.js';
import { arbitraryFromSchema } from '../schema/testing/arbitrary-object.js';
import type { Schema } from '../schema/types.js';
import { applyPatch, recordUpdate } from './index.js';
import { mergeObjects } from './merge.js';
import { deploymentSchema, LATER, NOW, nav } from './testing/fixtures.js';
import { TypeResolver } from './type-resolver.js';

interface Kind {
  readonly schema: Schema;
  readonly nav: SchemaNavigator;
}

function specArb(kind: Kind): fc.Arbitrary<KubeObject> {
  const specSchema = kind.nav.property(kind.schema, 'spec');
  return arbitraryFromSchema(specSchema, kind.nav, {
    maxDepth: 5,
    maxProperties: 3,
    maxItems: 2,
  }).map((spec) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    // Every config owns at least this label, so the object never ends up untracked (then the
    // next apply would record existing fields under before-first-apply, as upstream does).
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec,
  }));
}

function apply(
  kind: Kind,
  live: KubeObject | undefined,
  cfg: KubeObject,
  manager: string,
  now = NOW,
): KubeObject {
  return applyPatch(live, cfg, {
    ...kind,
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    manager,
    force: true,
    now,
  }).object;
}

/** The result holds every applied field: merging the config in again changes nothing. */
function containsApplied(kind: Kind, result: KubeObject, cfg: KubeObject): boolean {
  const { managedFields: _, ...metadata } = result.metadata ?? {};
  const plain = { ...result, metadata };
  return deepEqual(mergeObjects(new TypeResolver(kind.schema, kind.nav), plain, cfg), plain);
}

function withoutTimes(obj: KubeObject): KubeObject {
  const managedFields = obj.metadata?.managedFields?.map(({ time: _, ...e }) => e);
  return { ...obj, metadata: { ...obj.metadata, managedFields } };
}

/**
 * The value without empty maps and lists: an unowned `{}` left by an earlier config survives
 * (nobody owns it, so nothing prunes it), as in upstream, where typed objects cannot even tell
 * it from an absent field.
 */
function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropEmpty);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const d = dropEmpty(x);
    const empty = typeof d === 'object' && d !== null && Object.keys(d).length === 0;
    if (!empty) out[k] = d;
  }
  return out;
}

function properties(kind: Kind): void {
  it('applying onto nothing yields a superset of the config', () => {
    fc.assert(
      fc.property(specArb(kind), (cfg) =>
        containsApplied(kind, apply(kind, undefined, cfg, 'a'), cfg),
      ),
    );
  });

  it('applying onto an object another manager wrote yields a superset of the config', () => {
    fc.assert(
      fc.property(specArb(kind), specArb(kind), (liveCfg, cfg) => {
        const created = recordUpdate(undefined, liveCfg, {
          ...kind,
          apiVersion: 'apps/v1',
          manager: 'w',
          now: NOW,
        });
        const live = { ...created, metadata: { ...created.metadata, uid: 'u' } };
        return containsApplied(kind, apply(kind, live, cfg, 'a'), cfg);
      }),
    );
  });

  it('applying the same config twice is idempotent apart from times', () => {
    fc.assert(
      fc.property(specArb(kind), specArb(kind), (first, cfg) => {
        const once = apply(kind, apply(kind, undefined, first, 'a'), cfg, 'a');
        const twice = apply(kind, once, cfg, 'a', LATER);
        assert.deepEqual(withoutTimes(twice), withoutTimes(once));
        assert.deepEqual(dropEmpty(twice.spec), dropEmpty(cfg.spec));
      }),
    );
  });

  it('a later config of the same applier replaces its fields', () => {
    fc.assert(
      fc.property(specArb(kind), specArb(kind), (first, second) => {
        const got = apply(kind, apply(kind, undefined, first, 'a'), second, 'a');
        const alone = apply(kind, undefined, second, 'a');
        // Only the applier's entry: when a config owns nothing, the object is left untracked
        // and the next apply records the existing fields under before-first-apply, as upstream.
        const entryOf = (o: KubeObject) =>
          withoutTimes(o).metadata?.managedFields?.find((e) => e.manager === 'a');
        assert.deepEqual(dropEmpty(got.spec), dropEmpty(alone.spec));
        assert.deepEqual(entryOf(got), entryOf(alone));
      }),
    );
  });
}

describe('apply properties over the hand-written Deployment schema', () => {
  properties({ schema: deploymentSchema, nav });
});

describe('apply properties over the built-in Deployment schema', async () => {
  const builtin = await loadBuiltinSchemas();
  const schema = builtin.schemaFor({ group: 'apps', version: 'v1', kind: 'Deployment' });
  assert.ok(schema, 'built-in Deployment schema');
  properties({ schema, nav: builtin.navigator });
});
