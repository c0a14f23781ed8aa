import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinResources } from '../api/kinds/index.js';
import { createMemoryBackend } from '../storage/memory/backend.js';
import {
  DEFAULT_FEATURE_GATES,
  type FeatureGates,
  gateResources,
  parseFeatureGates,
  statefulSetFeatures,
  statefulSetGates,
} from './feature-gates.js';
import { ApiServer } from './server.js';

describe('parseFeatureGates', () => {
  const ok: { input: string; want: FeatureGates }[] = [
    { input: '', want: DEFAULT_FEATURE_GATES },
    {
      input: 'MaxUnavailableStatefulSet=true',
      want: { MaxUnavailableStatefulSet: true, StatefulSetRecreateStrategy: false },
    },
    {
      input: ' MaxUnavailableStatefulSet = 1 , StatefulSetRecreateStrategy=True,',
      want: { MaxUnavailableStatefulSet: true, StatefulSetRecreateStrategy: true },
    },
    {
      input: 'StatefulSetRecreateStrategy=true,StatefulSetRecreateStrategy=false',
      want: DEFAULT_FEATURE_GATES,
    },
  ];
  for (const c of ok) {
    it(`parses ${JSON.stringify(c.input)}`, () =>
      assert.deepEqual(parseFeatureGates(c.input), c.want));
  }

  const bad: { input: string; message: string }[] = [
    { input: 'Foo=true', message: 'unrecognized feature gate: Foo' },
    { input: 'MaxUnavailableStatefulSet', message: 'malformed pair, expect string=bool' },
    {
      input: 'MaxUnavailableStatefulSet=yes',
      message:
        'invalid value of MaxUnavailableStatefulSet=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    },
    {
      input: 'Foo=true,MaxUnavailableStatefulSet=',
      message:
        'invalid value of MaxUnavailableStatefulSet=, err: strconv.ParseBool: parsing "": invalid syntax',
    },
  ];
  for (const c of bad) {
    it(`refuses ${JSON.stringify(c.input)}`, () =>
      assert.throws(() => parseFeatureGates(c.input), { message: c.message }));
  }
});

describe('statefulSetFeatures', () => {
  it('is also exported as statefulSetGates', () =>
    assert.equal(statefulSetGates, statefulSetFeatures));
  it('maps the gates to the controller shape', () => {
    assert.deepEqual(statefulSetFeatures(), {
      maxUnavailableStatefulSet: false,
      statefulSetRecreateStrategy: false,
    });
    assert.deepEqual(
      statefulSetFeatures({ MaxUnavailableStatefulSet: true, StatefulSetRecreateStrategy: false }),
      { maxUnavailableStatefulSet: true, statefulSetRecreateStrategy: false },
    );
  });
});

describe('gateResources', () => {
  const stsOf = (defs: ReturnType<typeof gateResources>) =>
    defs.find((d) => d.group === 'apps' && d.kind === 'StatefulSet');

  it('returns the list unchanged with the defaults', () => {
    assert.equal(gateResources(builtinResources), builtinResources);
  });

  it('rebuilds only the StatefulSet kind when a gate is on', () => {
    const gated = gateResources(
      builtinResources,
      parseFeatureGates('MaxUnavailableStatefulSet=true'),
    );
    assert.equal(gated.length, builtinResources.length);
    const changed = gated.filter((d, i) => d !== builtinResources[i]);
    assert.deepEqual(
      changed.map((d) => `${d.group}/${d.kind}`),
      ['apps/StatefulSet'],
    );
    // The new definition defaults maxUnavailable: the gate reached the kind.
    const obj = { spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: {} } } };
    stsOf(gated)?.strategy.defaults?.(obj);
    assert.deepEqual(obj.spec.updateStrategy.rollingUpdate, { partition: 0, maxUnavailable: 1 });
  });
});

describe('ApiServerOptions.featureGates', () => {
  it('reaches the StatefulSet kind in the registry', () => {
    const maxUnavailableOf = (gates?: FeatureGates) => {
      const server = new ApiServer({
        backend: createMemoryBackend(),
        resources: builtinResources,
        ...(gates ? { featureGates: gates } : {}),
      });
      const def = server.registry.get('apps', 'v1', 'statefulsets');
      const obj = { spec: { updateStrategy: {} } };
      def?.strategy.defaults?.(obj);
      return (obj.spec.updateStrategy as { rollingUpdate?: Record<string, unknown> }).rollingUpdate;
    };
    assert.deepEqual(maxUnavailableOf(), { partition: 0 });
    assert.deepEqual(maxUnavailableOf(parseFeatureGates('MaxUnavailableStatefulSet=true')), {
      partition: 0,
      maxUnavailable: 1,
    });
  });
});
