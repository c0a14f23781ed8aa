/**
 * apiextensions as the server's {@link ApiExtensions}: what needs preparation, that `prepare()`
 * is one load per instance, and that each instance's hooks use the tools it loaded itself (no
 * module-wide state shared between servers).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../api/kinds/index.js';
import type { ResourceDefinition } from '../api/resource.js';
import type { ApiExtensions } from '../apiserver/extensions.js';
import { ResourceRegistry } from '../apiserver/registry.js';
import { ObjectStore } from '../apiserver/store/object-store.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import { FakeClock } from '../util/clock.js';
import { apiExtensions } from './index.js';
import { widgetCrd } from './testing/widget-crd.js';

function instance(): ApiExtensions {
  const backend = createMemoryBackend();
  return apiExtensions()({
    store: new ObjectStore({ backend }),
    registry: new ResourceRegistry(builtinResources),
    clock: new FakeClock(),
  });
}

/** A new CRD through the kind's create hooks, as the store runs them: its validation errors. */
function createErrors(extensions: ApiExtensions): unknown[] {
  const { strategy } = crdKind(extensions);
  const crd = widgetCrd();
  strategy.defaults?.(crd);
  strategy.prepareForCreate?.(crd);
  return strategy.validate?.(crd) ?? [];
}

function crdKind(extensions: ApiExtensions): ResourceDefinition {
  const [def] = extensions.resources;
  assert.ok(def !== undefined && def.kind === 'CustomResourceDefinition');
  return def;
}

describe('apiExtensions()', () => {
  const extensions = instance();
  const configMaps = builtinResources.find((d) => d.plural === 'configmaps');
  assert.ok(configMaps !== undefined);
  const cases: Array<[string, ResourceDefinition, boolean]> = [
    ['the CRD kind', crdKind(extensions), true],
    [
      'a custom resource',
      {
        ...configMaps,
        customResource: {
          crdName: 'x',
          schema: undefined,
          printerColumns: [],
          selectableFields: [],
        },
      },
      true,
    ],
    ['a built-in kind', configMaps, false],
  ];
  for (const [name, def, needed] of cases) {
    it(`says ${name} ${needed ? 'needs' : 'does not need'} preparation`, () => {
      assert.equal(extensions.needsPreparation(def), needed);
    });
  }

  it('serves the CRD kind, whose hooks work once prepare() resolved', async () => {
    const first = extensions.prepare();
    assert.equal(extensions.prepare(), first, 'a second call shares the load in flight');
    await first;
    assert.deepEqual(createErrors(extensions), []);
  });

  it('keeps the tools per instance: another server’s instance has not loaded them', async () => {
    await extensions.prepare();
    const other = instance();
    assert.throws(() => createErrors(other), /before prepare/);
    await other.prepare();
    assert.deepEqual(createErrors(other), []);
  });
});
